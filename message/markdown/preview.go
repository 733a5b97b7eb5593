package markdown

import (
	"net/url"
	"path"
	"strings"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/text"
	"github.com/yuin/goldmark/util"
)

// Inline previews: a link to an image (or an MP4/WebM video) outside
// quotes gets a preview after its paragraph, or at the end of its list
// item, as Zulip renders them. Nothing is fetched: images are served
// through Zulip's /thumbnail endpoint URLs and a link that is alone in its
// paragraph is replaced by its preview.

// KindPreview is the node kind of an inline image or video preview.
var KindPreview = ast.NewNodeKind("ZulipPreview")

type previewNode struct {
	ast.BaseBlock
	Href  string
	Title string
	Image string // image URL; "" for a video
	Video string // video URL
	Camo  string // the video through the image proxy, if one is set
	// Direct: an external image shown by its own URL (through Camo when
	// set), as from Zulip 9.0, not through /thumbnail?url=.
	Direct bool
	// Upload is the realm's uploaded image previewed, with how its
	// attributes are written (Zulip 9.0+).
	Upload     *UploadImage
	thumbnails *Thumbnails
}

func (n *previewNode) Kind() ast.NodeKind { return KindPreview }

func (n *previewNode) Dump(source []byte, level int) { ast.DumpHelper(n, source, level, nil, nil) }

// maxPreviews is Zulip's limit of previewed URLs per message.
const maxPreviews = 24

var imageExtensions = []string{".bmp", ".gif", ".jpe", ".jpeg", ".jpg", ".png", ".webp"}

func isImageURL(u *url.URL) bool {
	if u.Host == "pasteboard.co" {
		return false
	}
	p := strings.ToLower(u.Path)
	for _, ext := range imageExtensions {
		if strings.HasSuffix(p, ext) {
			return true
		}
	}
	return false
}

func isVideoURL(u *url.URL) bool {
	switch strings.ToLower(path.Ext(u.Path)) {
	case ".mp4", ".webm":
		return true
	}
	return false
}

// actualImageURL turns a GitHub blob URL into its raw file.
func actualImageURL(href string, u *url.URL) string {
	if u.Host == "github.com" || strings.HasSuffix(u.Host, ".github.com") {
		parts := strings.Split(u.Path, "/")
		if len(parts) > 3 && parts[3] == "blob" {
			return "https://raw.githubusercontent.com" + strings.Join(append(parts[:3:3], parts[4:]...), "/")
		}
	}
	return href
}

type previewTransformer struct{}

type foundLink struct {
	link *ast.Link
	href string
}

func (previewTransformer) Transform(doc *ast.Document, reader text.Reader, pc parser.Context) {
	src := reader.Source()
	var found []foundLink
	unique := map[string]bool{}
	_ = ast.Walk(doc, func(n ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		if inQuote(n) && n.Kind() == ast.KindBlockquote {
			return ast.WalkSkipChildren, nil
		}
		if f, ok := n.(*fenceNode); ok && f.Mode == fenceQuote {
			return ast.WalkSkipChildren, nil
		}
		if l, ok := n.(*ast.Link); ok {
			h := string(l.Destination)
			found = append(found, foundLink{l, h})
			unique[h] = true
			return ast.WalkSkipChildren, nil
		}
		return ast.WalkContinue, nil
	})
	if len(found) == 0 || len(unique) > maxPreviews {
		return
	}
	st := getState(pc)
	done := map[string]bool{}
	for _, f := range found {
		if done[f.href] {
			continue
		}
		done[f.href] = true
		u, err := url.Parse(f.href)
		if err != nil {
			continue
		}
		var p *previewNode
		switch {
		case isVideoURL(u):
			p = &previewNode{Href: f.href, Video: f.href}
			if st.camo != nil {
				p.Camo = st.camo(f.href)
			}
		case st.ctx.NoImagePreviews && (isUploadLink(f.href) || isImageURL(u)):
			// Zulip's is_image says no to every image then.
			continue
		case st.ctx.Thumbnails != nil && isUploadLink(f.href):
			// An upload is previewed only as an image the server
			// thumbnails, whatever its name says.
			path, _ := uploadPathOf(f.href)
			img, ok := st.ctx.Thumbnails.Image(path)
			if !ok {
				continue
			}
			p = &previewNode{Href: f.href, Upload: &img, thumbnails: st.ctx.Thumbnails}
			st.hasImage = true
		case isImageURL(u):
			p = &previewNode{Href: f.href, Image: actualImageURL(f.href, u)}
			if st.ctx.Thumbnails != nil {
				p.Direct = true
				if st.camo != nil && !st.isLocalURL(p.Image) {
					p.Image = st.camo(p.Image)
				}
			}
			st.hasImage = true
		default:
			continue
		}
		insertPreview(doc, f.link, p, src)
	}
}

// linkText is the text of a link's children.
func linkText(l ast.Node, src []byte) string {
	var b strings.Builder
	for c := l.FirstChild(); c != nil; c = c.NextSibling() {
		switch t := c.(type) {
		case *ast.Text:
			b.Write(t.Segment.Value(src))
		case *ast.String:
			b.Write(t.Value)
		default:
			return "\x00"
		}
	}
	return b.String()
}

func insertPreview(doc *ast.Document, link *ast.Link, p *previewNode, src []byte) {
	txt := linkText(link, src)
	plain := txt == p.Href
	if !plain {
		p.Title = txt
	}
	parent := link.Parent()
	para, isPara := parent.(*ast.Paragraph)
	if !isPara {
		doc.AppendChild(doc, p)
		return
	}
	alone := link.PreviousSibling() == nil && isBlankTail(link.NextSibling(), src)
	if li, ok := para.Parent().(*listItem); ok && !li.Loose {
		li.AppendChild(li, p)
		if alone && plain {
			para.RemoveChild(para, link)
		}
		return
	}
	gp := para.Parent()
	// After the paragraph and the previews already placed after it.
	after := ast.Node(para)
	for next := after.NextSibling(); next != nil; next = next.NextSibling() {
		if _, ok := next.(*previewNode); !ok {
			break
		}
		after = next
	}
	gp.InsertAfter(gp, after, p)
	if alone && plain {
		gp.RemoveChild(gp, para)
	}
}

func isBlankTail(n ast.Node, src []byte) bool {
	for ; n != nil; n = n.NextSibling() {
		t, ok := n.(*ast.Text)
		if !ok || len(strings.TrimSpace(string(t.Segment.Value(src)))) > 0 {
			return false
		}
	}
	return true
}

// isUploadLink: the link is to the realm's /user_uploads/ pages.
func isUploadLink(href string) bool {
	_, ok := uploadPathOf(href)
	return ok
}

// isLocalURL: a URL on the realm's own site, which Zulip never routes
// through Camo.
func (s *state) isLocalURL(u string) bool {
	if s.realmURL != "" && strings.HasPrefix(u, s.realmURL+"/") {
		return true
	}
	return !strings.Contains(u, "://") && !strings.HasPrefix(u, "//")
}

// thumbnailURL is Zulip's thumbnail endpoint for an external image.
func thumbnailURL(u, size string) string {
	return "/thumbnail?url=" + quoteAll(u) + "&size=" + size
}

type previewHTML struct{}

func (previewHTML) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(KindPreview, renderPreview)
}

// renderPreview writes the preview div. Zulip adds previews after its
// tree is laid out, so no newline follows them.
func renderPreview(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkSkipChildren, nil
	}
	n := node.(*previewNode)
	attrs := [][2]string{{"href", n.Href}}
	if n.Title != "" {
		attrs = append(attrs, [2]string{"title", n.Title})
	}
	if n.Video != "" {
		_, _ = w.WriteString(`<div class="message_inline_image message_inline_video">`)
		writeTag(w, "a", attrs)
		if n.Camo != "" {
			writeTag(w, "video", [][2]string{{"data-video-original-url", n.Video}, {"preload", "metadata"}, {"src", n.Camo}})
		} else {
			writeTag(w, "video", [][2]string{{"preload", "metadata"}, {"src", n.Video}})
		}
		_, _ = w.WriteString("</video></a></div>")
		return ast.WalkSkipChildren, nil
	}
	_, _ = w.WriteString(`<div class="message_inline_image">`)
	writeTag(w, "a", attrs)
	switch {
	case n.Upload != nil:
		writeTag(w, "img", n.thumbnails.uploadImgAttrs(*n.Upload))
	case n.Direct:
		writeTag(w, "img", [][2]string{{"src", n.Image}})
	default:
		writeTag(w, "img", [][2]string{{"data-src-fullsize", thumbnailURL(n.Image, "full")}, {"src", thumbnailURL(n.Image, "thumbnail")}})
	}
	_, _ = w.WriteString("</a></div>")
	return ast.WalkSkipChildren, nil
}
