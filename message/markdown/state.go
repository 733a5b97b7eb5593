package markdown

import (
	"slices"
	"strings"

	"github.com/yuin/goldmark/parser"
)

// stateKey holds the per-render state in goldmark's parser context.
var stateKey = parser.NewContextKey()

// state is one render's lookups and findings.
type state struct {
	ctx      Context
	realmURL string
	camo     func(string) string
	fmt      formatting

	users          []int
	groups         []int
	streamWildcard bool
	topicWildcard  bool
	hasLink        bool
	hasImage       bool
	uploads        []string // path ids of linked uploads
}

func getState(pc parser.Context) *state {
	if v := pc.Get(stateKey); v != nil {
		return v.(*state)
	}
	return &state{}
}

func (s *state) addUser(id int) {
	if !slices.Contains(s.users, id) {
		s.users = append(s.users, id)
	}
}

func (s *state) addGroup(id int) {
	if !slices.Contains(s.groups, id) {
		s.groups = append(s.groups, id)
	}
}

func (s *state) fill(r *Result) {
	r.MentionedUserIDs = s.users
	r.MentionedGroupIDs = s.groups
	r.StreamWildcard = s.streamWildcard
	r.TopicWildcard = s.topicWildcard
	r.HasLink = s.hasLink
	r.HasImage = s.hasImage
	r.UploadPaths = s.uploads
}

// noteLink records a link the message makes (its final href): every link
// makes has_link, and one to the realm's /user_uploads/ names an upload.
func (s *state) noteLink(href string) {
	s.hasLink = true
	if p, ok := strings.CutPrefix(strings.TrimPrefix(href, "/"), "user_uploads/"); ok && p != "" && !slices.Contains(s.uploads, p) {
		s.uploads = append(s.uploads, p)
	}
}

func (s *state) lookup() Lookup {
	if s.ctx.Lookup == nil {
		return noLookup{}
	}
	return s.ctx.Lookup
}
