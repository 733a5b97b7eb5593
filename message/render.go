package message

import "github.com/minizulip/minizulip/message/markdown"

// Renderer turns message Markdown into the HTML Zulip's server makes of
// it (see package markdown). Safe for concurrent use.
type Renderer struct {
	md *markdown.Renderer
}

// NewRenderer builds the renderer.
func NewRenderer(opts ...markdown.Option) *Renderer {
	return &Renderer{md: markdown.New(opts...)}
}

// Render returns the HTML of content rendered without realm data:
// mentions and channel links stay text.
func (r *Renderer) Render(content string) string {
	return r.md.Render(content)
}

// RenderWith renders content with the realm's users, groups, channels,
// emoji and linkifiers, and reports the mentions it found.
func (r *Renderer) RenderWith(content string, lookup markdown.Lookup) markdown.Result {
	return r.md.RenderWith(content, lookup)
}

// RenderFor renders content for a sender (their emoticon setting).
func (r *Renderer) RenderFor(content string, c markdown.Context) markdown.Result {
	return r.md.RenderFor(content, c)
}
