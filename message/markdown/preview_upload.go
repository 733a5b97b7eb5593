package markdown

import (
	"bufio"
	"strconv"
	"strings"
)

// Previews of the realm's uploaded images (Zulip 9.0+, feature level
// 275 on): a link to /user_uploads/<path_id> is previewed only when the
// file is an image the server thumbnails, by its default thumbnail, or by
// a loading placeholder until the thumbnail is made (see Zulip's
// api_docs/message-formatting.md, "Images").

// Thumbnails is what a render needs to preview uploaded images.
type Thumbnails struct {
	// Image describes the uploaded file at pathID; false for a file that
	// is not an image the server thumbnails (it gets no preview).
	Image func(pathID string) (UploadImage, bool)
	// Dimensions: thumbnailed images carry data-original-dimensions
	// (feature level 276 on).
	Dimensions bool
	// PlaceholderDimensions: loading placeholders carry it too (feature
	// levels 278-279 and 287 on).
	PlaceholderDimensions bool
	// ContentType: images and placeholders carry
	// data-original-content-type (feature level 336 on).
	ContentType bool
}

// UploadImage is an uploaded image as its preview shows it.
type UploadImage struct {
	Width, Height int
	ContentType   string
	Animated      bool
	// Src is the default thumbnail's URL once the thumbnails are made;
	// "" shows the loading placeholder.
	Src string
}

// placeholderSrc is the spinner Zulip shows until an image's thumbnails
// are made.
const placeholderSrc = "/static/images/loading/loader-black.svg"

// uploadImgAttrs are the attributes of an uploaded image's <img>.
func (t *Thumbnails) uploadImgAttrs(img UploadImage) [][2]string {
	dims := strconv.Itoa(img.Width) + "x" + strconv.Itoa(img.Height)
	var attrs [][2]string
	if img.Src == "" {
		attrs = append(attrs, [2]string{"class", "image-loading-placeholder"}, [2]string{"src", placeholderSrc})
		if t.PlaceholderDimensions {
			attrs = append(attrs, [2]string{"data-original-dimensions", dims})
			if t.ContentType && img.ContentType != "" {
				attrs = append(attrs, [2]string{"data-original-content-type", img.ContentType})
			}
		}
		return attrs
	}
	attrs = append(attrs, [2]string{"src", img.Src})
	if t.Dimensions {
		attrs = append(attrs, [2]string{"data-original-dimensions", dims})
	}
	if t.ContentType && img.ContentType != "" {
		attrs = append(attrs, [2]string{"data-original-content-type", img.ContentType})
	}
	if img.Animated {
		attrs = append(attrs, [2]string{"data-animated", "true"})
	}
	return attrs
}

// uploadPathOf is the path_id a preview's link names, if it is the
// realm's /user_uploads/ page.
func uploadPathOf(href string) (string, bool) {
	p, ok := strings.CutPrefix(href, "/user_uploads/")
	return p, ok && p != ""
}

// ReplaceUploadPlaceholder rewrites rendered HTML once the thumbnails of
// the uploaded image at pathID are made, as Zulip's thumbnailing worker
// does: each loading placeholder of that image becomes img's thumbnail,
// or, with img nil (the image could not be thumbnailed), its whole
// preview is removed. It reports whether anything changed.
func (t *Thumbnails) ReplaceUploadPlaceholder(html, pathID string, img *UploadImage) (string, bool) {
	open := `<div class="message_inline_image"><a href="` + escapeAttr("/user_uploads/"+pathID) + `"`
	const close = "</a></div>"
	var b strings.Builder
	changed := false
	for {
		i := strings.Index(html, open)
		if i < 0 {
			break
		}
		end := strings.Index(html[i:], close)
		if end < 0 {
			break
		}
		end += i + len(close)
		preview := html[i:end]
		imgAt := strings.Index(preview, "<img ")
		if imgAt < 0 || !strings.Contains(preview[imgAt:], `class="image-loading-placeholder"`) {
			b.WriteString(html[:end])
			html = html[end:]
			continue
		}
		changed = true
		b.WriteString(html[:i])
		if img != nil {
			tagEnd := strings.IndexByte(preview[imgAt:], '>') + imgAt + 1
			b.WriteString(preview[:imgAt])
			b.WriteString(tagString("img", t.uploadImgAttrs(*img)))
			b.WriteString(preview[tagEnd:])
		}
		html = html[end:]
	}
	b.WriteString(html)
	out, inline := t.replaceInlinePlaceholders(b.String(), "/user_uploads/"+pathID, img)
	return out, changed || inline
}

// tagString is the opening tag writeTag writes.
func tagString(tag string, attrs [][2]string) string {
	var sb strings.Builder
	w := bufio.NewWriter(&sb)
	writeTag(w, tag, attrs)
	_ = w.Flush()
	return sb.String()
}
