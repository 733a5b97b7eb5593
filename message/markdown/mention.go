package markdown

import (
	"regexp"
	"strconv"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Mentions: @**Full Name**, @**Full Name|id**, @**|id**, silent
// @_**Full Name**, wildcards (@**all**, @**everyone**, @**channel**,
// @**stream**, @**topic**) and group mentions @*group* / @_*group*.
// Mentions in quotes are silent; so are mentions of deactivated users and
// groups. A name the realm does not know stays text.

// KindMention is the node kind of a user, wildcard or group mention.
var KindMention = ast.NewNodeKind("ZulipMention")

type mentionNode struct {
	ast.BaseInline
	Class  string // user-mention, topic-mention, user-group-mention, …
	Attr   string // data-user-id or data-user-group-id
	ID     string
	Name   string
	Silent bool
}

func (n *mentionNode) Kind() ast.NodeKind { return KindMention }

func (n *mentionNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

var streamWildcards = map[string]bool{"all": true, "everyone": true, "stream": true, "channel": true}

// mentionAllowedBefore holds the characters a mention may follow.
const mentionAllowedBefore = " \t\n'\"({[/<"

func allowedBefore(block text.Reader, set string) bool {
	_, seg := block.PeekLine()
	if seg.Start == 0 {
		return true
	}
	return strings.IndexByte(set, block.Source()[seg.Start-1]) >= 0
}

var mentionIDSyntax = regexp.MustCompile(`^(.+)?\|(\d+)$`)

type mentionParser struct{}

func newMentionParser() parser.InlineParser { return mentionParser{} }

func (mentionParser) Trigger() []byte { return []byte{'@'} }

func (mentionParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	if !allowedBefore(block, mentionAllowedBefore) {
		return nil
	}
	line, _ := block.PeekLine()
	i := 1
	silent := false
	if i < len(line) && line[i] == '_' {
		silent = true
		i++
	}
	stars := 0
	for i+stars < len(line) && stars < 2 && line[i+stars] == '*' {
		stars++
	}
	if stars == 0 {
		return nil
	}
	nameStart := i + stars
	j := nameStart
	for j < len(line) && line[j] != '*' {
		j++
	}
	if j == nameStart || j+stars > len(line) || (stars == 2 && (j+1 >= len(line) || line[j+1] != '*')) {
		return nil
	}
	name := string(line[nameStart:j])
	end := j + stars
	st := getState(pc)
	silent = silent || inQuote(parent)
	var n *mentionNode
	if stars == 2 {
		n = st.userMention(name, silent)
	} else {
		n = st.groupMention(name, silent)
	}
	if n == nil {
		return nil
	}
	block.Advance(end)
	return n
}

func (s *state) userMention(name string, silent bool) *mentionNode {
	switch {
	case streamWildcards[name] && !(name == "channel" && s.fmt.noChannelWildcard):
		if !silent {
			s.streamWildcard = true
		}
		return &mentionNode{Class: "user-mention channel-wildcard-mention", Attr: "data-user-id", ID: "*", Name: name, Silent: silent}
	case name == "topic":
		if !silent {
			s.topicWildcard = true
		}
		return &mentionNode{Class: "topic-mention", Name: name, Silent: silent}
	}
	var u User
	var ok bool
	if m := mentionIDSyntax.FindStringSubmatch(name); m != nil {
		id, err := strconv.Atoi(m[2])
		if err != nil {
			return nil
		}
		u, ok = s.lookup().UserByID(id)
		if ok && m[1] != "" && u.FullName != m[1] {
			return nil
		}
	} else {
		u, ok = s.lookup().UserByName(name)
	}
	if !ok {
		return nil
	}
	if !u.Active {
		silent = true
	}
	if !silent {
		s.addUser(u.ID)
	}
	return &mentionNode{Class: "user-mention", Attr: "data-user-id", ID: strconv.Itoa(u.ID), Name: u.FullName, Silent: silent}
}

func (s *state) groupMention(name string, silent bool) *mentionNode {
	g, ok := s.lookup().GroupByName(name)
	if !ok {
		return nil
	}
	if g.Deactivated {
		silent = true
	}
	if !silent {
		s.addGroup(g.ID)
	}
	return &mentionNode{Class: "user-group-mention", Attr: "data-user-group-id", ID: strconv.Itoa(g.ID), Name: g.Name, Silent: silent}
}

func renderMention(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*mentionNode)
	class, text := n.Class, "@"+n.Name
	if n.Silent {
		class += " silent"
		text = n.Name
	}
	attrs := [][2]string{{"class", class}}
	if n.Attr != "" {
		attrs = append(attrs, [2]string{n.Attr, n.ID})
	}
	writeTag(w, "span", attrs)
	_, _ = w.WriteString(escapeText(text) + "</span>")
	return ast.WalkSkipChildren, nil
}
