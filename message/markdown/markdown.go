// Package markdown renders Zulip-flavoured Markdown to the HTML Zulip's
// server produces. It is built on goldmark: every Zulip syntax (mentions,
// channel links, emoji, fenced quote/spoiler/math blocks, global times,
// linkifiers, Zulip's autolinks and lists) is its own goldmark parser and
// node renderer, registered with a priority in New.
//
// Realm data (users, groups, channels, realm emoji, linkifiers) is looked
// up through the Lookup interface given to each render, so one Renderer
// serves a whole realm and is safe for concurrent use.
package markdown

import (
	"bufio"
	"bytes"
	"crypto/hmac"
	"crypto/sha1"
	"encoding/hex"
	"strings"
	"sync"

	"github.com/minizulip/minizulip/linkifier"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// User is a realm user as mentions see it.
type User struct {
	ID       int
	FullName string
	Active   bool
}

// Group is a user group as group mentions see it.
type Group struct {
	ID          int
	Name        string // the name a mention shows (a system group's display name)
	Deactivated bool
}

// Channel is a channel as channel links see it.
type Channel struct {
	ID   int
	Name string
}

// Lookup gives the renderer the realm's data. Every method may be called
// from several goroutines at once; a nil Lookup finds nothing.
type Lookup interface {
	// UserByName finds an active or deactivated user by full name.
	UserByName(fullName string) (User, bool)
	// UserByID finds a user by id.
	UserByID(id int) (User, bool)
	// GroupByName finds a user group by name.
	GroupByName(name string) (Group, bool)
	// ChannelByName finds a channel by name.
	ChannelByName(name string) (Channel, bool)
	// RealmEmoji returns the image URL of an active realm emoji.
	RealmEmoji(name string) (url string, ok bool)
	// Linkifiers lists the realm's linkifiers in order.
	Linkifiers() []*linkifier.Linkifier
}

// Context is what a render needs beyond the realm: the realm lookup and
// the sender's settings.
type Context struct {
	Lookup Lookup
	// TranslateEmoticons turns :) and friends into emoji (the sender's
	// translate_emoticons setting).
	TranslateEmoticons bool
	// Thumbnails, when set, previews images as Zulip 9.0 and later do:
	// the realm's uploaded images by their thumbnails, other images by
	// their own URL (through Camo when it is set). Unset, image previews
	// use the older /thumbnail?url= form.
	Thumbnails *Thumbnails
	// DefaultCodeBlockLanguage is the language of fenced blocks that
	// name none (the realm's default_code_block_language).
	DefaultCodeBlockLanguage string
	// NoImagePreviews leaves image links without previews (the realm's
	// inline_image_preview turned off).
	NoImagePreviews bool
	// EmptyTopicName is the empty topic's display name in links to it
	// (the realm's realm_empty_topic_display_name); DefaultEmptyTopicName
	// when empty.
	EmptyTopicName string
	// UploadContentType is the content type of the realm's uploaded file
	// at pathID ("" when there is none), for audio players.
	UploadContentType func(pathID string) string
}

// Result is a rendered message and what rendering found in it, from which
// the realm sets the recipients' message flags.
type Result struct {
	HTML string
	// MentionedUserIDs are users mentioned directly and not silently.
	MentionedUserIDs []int
	// MentionedGroupIDs are user groups mentioned, not silently.
	MentionedGroupIDs []int
	// StreamWildcard is set by @**all**, @**everyone**, @**channel** or
	// @**stream** (not silent).
	StreamWildcard bool
	// TopicWildcard is set by @**topic** (not silent).
	TopicWildcard bool
	// IsMeMessage reports a /me message.
	IsMeMessage bool
	// HasLink and HasImage answer the has:link and has:image narrows: the
	// message makes a link, or shows an image preview (emoji do not count).
	HasLink, HasImage bool
	// UploadPaths are the path ids of the realm's uploaded files the
	// message links to (below /user_uploads/), in order of first link;
	// they answer has:attachment.
	UploadPaths []string
}

// Option configures a Renderer.
type Option func(*Renderer)

// WithRealmURL sets the realm's URL (like "http://zulip.testserver"):
// links to its "#narrow" and "user_uploads" pages become relative.
func WithRealmURL(u string) Option {
	return func(r *Renderer) { r.realmURL = strings.TrimRight(u, "/") }
}

// WithCamo routes video previews through a Camo image proxy at base
// (like "https://external-content.zulipcdn.net/external_content/") with
// the proxy's shared key, as Zulip does.
func WithCamo(base, key string) Option {
	return func(r *Renderer) {
		r.camo = func(u string) string {
			m := hmac.New(sha1.New, []byte(key))
			m.Write([]byte(u))
			return base + hex.EncodeToString(m.Sum(nil)) + "/" + hex.EncodeToString([]byte(u))
		}
	}
}

// Renderer renders Zulip Markdown. Safe for concurrent use.
type Renderer struct {
	md       goldmark.Markdown
	realmURL string
	camo     func(string) string
	fmt      formatting
}

// renderBufs are the output buffers of renders, shared by every Renderer.
var renderBufs = sync.Pool{New: func() any {
	rb := &renderBuf{}
	rb.w = bufio.NewWriterSize(&rb.out, 4096)
	return rb
}}

// New builds a renderer with every Zulip extension.
func New(opts ...Option) *Renderer {
	r := &Renderer{}
	for _, o := range opts {
		o(r)
	}
	r.md = zulipMarkdown()
	return r
}

// zulipMarkdown is goldmark with every Zulip extension. It keeps no state
// of a renderer or a realm (renders find theirs in the parser context), so
// every Renderer shares one, built on first use.
var zulipMarkdown = sync.OnceValue(func() goldmark.Markdown {
	p := parser.NewParser(
		parser.WithBlockParsers(
			util.Prioritized(parser.NewThematicBreakParser(), 200),
			util.Prioritized(newListParser(), 300),
			util.Prioritized(newListItemParser(), 400),
			util.Prioritized(parser.NewCodeBlockParser(), 500),
			util.Prioritized(parser.NewATXHeadingParser(), 600),
			util.Prioritized(newFenceParser(), 700),
			util.Prioritized(newBlockquoteParser(), 800),
			util.Prioritized(newParagraphParser(), 1000),
		),
		parser.WithInlineParsers(
			util.Prioritized(newCodeSpanParser(), 100),
			util.Prioritized(newTexParser(), 150),
			util.Prioritized(newStreamLinkParser(), 160),
			util.Prioritized(newMentionParser(), 170),
			util.Prioritized(newTimestampParser(), 180),
			util.Prioritized(newMediaParser(), 190),
			util.Prioritized(newLinkParser(), 200),
			util.Prioritized(newAutolinkParser(), 300),
			util.Prioritized(newEntityParser(), 400),
			util.Prioritized(newEmphasisParser(), 500),
			util.Prioritized(newStrikethroughParser(), 510),
			util.Prioritized(newEmojiParser(), 600),
			util.Prioritized(newEmoticonParser(), 700),
		),
		parser.WithParagraphTransformers(
			util.Prioritized(extension.NewTableParagraphTransformer(), 200),
		),
		parser.WithASTTransformers(
			util.Prioritized(extension.NewTableASTTransformer(), 0),
			util.Prioritized(linkifierTransformer{}, 100),
			util.Prioritized(unicodeEmojiTransformer{}, 200),
			util.Prioritized(previewTransformer{}, 900),
		),
	)
	rd := renderer.NewRenderer(renderer.WithNodeRenderers(
		util.Prioritized(baseHTML{}, 1000),
		util.Prioritized(tableHTML{}, 500),
		util.Prioritized(fenceHTML{}, 500),
		util.Prioritized(listHTML{}, 500),
		util.Prioritized(zulipHTML{}, 500),
		util.Prioritized(previewHTML{}, 500),
		util.Prioritized(mediaHTML{}, 500),
	))
	return goldmark.New(goldmark.WithParser(p), goldmark.WithRenderer(rd))
})

// Render renders content with no realm data: mentions and channel links
// stay text.
func (r *Renderer) Render(content string) string {
	return r.RenderFor(content, Context{}).HTML
}

// RenderWith renders content with the realm's data.
func (r *Renderer) RenderWith(content string, lookup Lookup) Result {
	return r.RenderFor(content, Context{Lookup: lookup})
}

// RenderFor renders content for a sender. Plain text (plainParagraph)
// skips the Markdown parser: it renders as itself in a paragraph.
func (r *Renderer) RenderFor(content string, c Context) Result {
	if res, ok := renderPlain(content, c); ok {
		return res
	}
	return r.renderMarkdown(content, c)
}

// renderMarkdown renders content through the whole Markdown pipeline.
func (r *Renderer) renderMarkdown(content string, c Context) Result {
	src := []byte(normalize(content))
	st := &state{ctx: c, realmURL: r.realmURL, camo: r.camo, fmt: r.fmt}
	pc := parser.NewContext()
	pc.Set(stateKey, st)
	doc := r.md.Parser().Parse(text.NewReader(src), parser.WithContext(pc))
	rb := renderBufs.Get().(*renderBuf)
	defer renderBufs.Put(rb)
	rb.out.Reset()
	rb.w.Reset(&rb.out)
	var res Result
	// goldmark writes through a bufio.Writer; handing it a pooled one
	// saves allocating 4 KiB per render.
	if err := r.md.Renderer().Render(rb.w, src, doc); err != nil {
		res.HTML = "<p>" + escapeText(content) + "</p>"
	} else {
		_ = rb.w.Flush()
		res.HTML = strings.TrimSpace(rb.out.String())
	}
	st.fill(&res)
	res.IsMeMessage = strings.HasPrefix(content, "/me ") && !strings.Contains(content, "\n") &&
		strings.HasPrefix(res.HTML, "<p>/me ") && strings.HasSuffix(res.HTML, "</p>")
	return res
}

// renderBuf is a reusable output buffer with the buffered writer goldmark
// renders through.
type renderBuf struct {
	out bytes.Buffer
	w   *bufio.Writer
}
