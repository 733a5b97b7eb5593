package markdown

import "github.com/yuin/goldmark/renderer"

// zulipHTML registers the renderers of the inline Zulip syntaxes.
type zulipHTML struct{}

func (zulipHTML) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindCode, renderCode)
	reg.Register(KindEmphasis, renderEmphasis)
	reg.Register(KindMarker, renderMarker)
	reg.Register(KindTex, renderTex)
	reg.Register(KindEmoji, renderEmoji)
	reg.Register(KindMention, renderMention)
	reg.Register(KindChannelLink, renderChannelLink)
	reg.Register(KindTimestamp, renderTimestamp)
}
