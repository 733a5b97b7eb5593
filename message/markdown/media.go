package markdown

import (
	"html"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Markdown media syntax, ![alt](url), for the realm's uploads (Zulip's
// api_docs/message-formatting.md): an uploaded audio file is an <audio>
// player (Zulip 11.0, feature level 405), an uploaded image the server
// thumbnails is an <img class="inline-image"> (Zulip 12.0, feature level
// 437). Anything else stays "!" and a link, as before those levels.

// KindMedia is the node kind of an inline image or audio player.
var KindMedia = ast.NewNodeKind("ZulipMedia")

type mediaNode struct {
	ast.BaseInline
	Alt  string
	Href string
	// Image is the uploaded image shown; nil for an audio player.
	Image      *UploadImage
	thumbnails *Thumbnails
}

func (n *mediaNode) Kind() ast.NodeKind { return KindMedia }

func (n *mediaNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// audioTypes are the content types Zulip plays in an <audio> player.
var audioTypes = map[string]bool{"audio/aac": true, "audio/flac": true, "audio/mpeg": true,
	"audio/wav": true, "audio/x-wav": true, "audio/vnd.wave": true}

type mediaParser struct{}

func newMediaParser() parser.InlineParser { return mediaParser{} }

func (mediaParser) Trigger() []byte { return []byte{'!'} }

func (mediaParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	st := getState(pc)
	if st.fmt.noAudioPlayers && st.fmt.noImageSyntax {
		return nil
	}
	line, _ := block.PeekLine()
	if len(line) < 2 || line[1] != '[' {
		return nil
	}
	i := labelEnd(line, 1)
	if i+1 >= len(line) || line[i+1] != '(' {
		return nil
	}
	alt := string(line[2:i])
	dest, _, end, ok := parseLinkTarget(line, i+1)
	if !ok {
		return nil
	}
	href, ok := sanitizeURL(dest)
	if !ok {
		return nil
	}
	href = st.localLink(href)
	pathID, ok := uploadPathOf(href)
	if !ok {
		return nil
	}
	n := &mediaNode{Alt: alt, Href: href}
	switch {
	case !st.fmt.noAudioPlayers && st.ctx.UploadContentType != nil && isAudio(st.ctx.UploadContentType(pathID)):
	case !st.fmt.noImageSyntax && st.ctx.Thumbnails != nil && st.ctx.Thumbnails.Image != nil:
		img, ok := st.ctx.Thumbnails.Image(pathID)
		if !ok {
			return nil
		}
		n.Image, n.thumbnails = &img, st.ctx.Thumbnails
		st.hasImage = true
	default:
		return nil
	}
	st.noteLink(href)
	block.Advance(end)
	return n
}

func isAudio(contentType string) bool {
	t, _, _ := strings.Cut(contentType, ";")
	return audioTypes[strings.ToLower(strings.TrimSpace(t))]
}

// mediaHTML renders media nodes.
type mediaHTML struct{}

func (mediaHTML) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindMedia, func(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		n := node.(*mediaNode)
		if n.Image == nil {
			_, _ = w.WriteString(`<audio controls preload="metadata" src="` + escapeAttr(n.Href) +
				`" title="` + escapeAttr(n.Alt) + `"></audio>`)
			return ast.WalkSkipChildren, nil
		}
		writeTag(w, "img", n.thumbnails.inlineImgAttrs(n.Alt, n.Href, *n.Image))
		return ast.WalkSkipChildren, nil
	})
}

// inlineImgAttrs are the attributes of an uploaded image written in
// Markdown image syntax: its preview's attributes, with class
// "inline-image" and the original's URL in data-original-src.
func (t *Thumbnails) inlineImgAttrs(alt, href string, img UploadImage) [][2]string {
	attrs := [][2]string{{"alt", alt}, {"data-original-src", href}}
	class := "inline-image"
	for _, a := range t.uploadImgAttrs(img) {
		if a[0] == "class" {
			class += " " + a[1]
			continue
		}
		attrs = append(attrs, a)
	}
	return append(attrs, [2]string{"class", class})
}

// replaceInlinePlaceholders rewrites the loading placeholders of the
// uploaded image at href written in image syntax to img (nil: removes
// them), for ReplaceUploadPlaceholder.
func (t *Thumbnails) replaceInlinePlaceholders(src, href string, img *UploadImage) (string, bool) {
	mark := `data-original-src="` + escapeAttr(href) + `"`
	var b strings.Builder
	changed := false
	for {
		i := strings.Index(src, `<img alt="`)
		if i < 0 {
			break
		}
		end := strings.IndexByte(src[i:], '>')
		if end < 0 {
			break
		}
		end += i + 1
		tag := src[i:end]
		if !strings.Contains(tag, `class="inline-image image-loading-placeholder"`) || !strings.Contains(tag, mark) {
			b.WriteString(src[:end])
			src = src[end:]
			continue
		}
		changed = true
		b.WriteString(src[:i])
		if img != nil {
			rest := tag[len(`<img alt="`):]
			alt := html.UnescapeString(rest[:strings.IndexByte(rest, '"')])
			b.WriteString(tagString("img", t.inlineImgAttrs(alt, href, *img)))
		}
		src = src[end:]
	}
	b.WriteString(src)
	return b.String(), changed
}
