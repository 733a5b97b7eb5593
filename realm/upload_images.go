package realm

import (
	"cmp"
	"context"
	"maps"
	"slices"
	"time"

	"github.com/minizulip/minizulip/message"
	"github.com/minizulip/minizulip/message/markdown"
	"github.com/minizulip/minizulip/upload"
	"github.com/minizulip/minizulip/user"
)

// Uploaded images and their thumbnails, as Zulip 9.0+ has them (feature
// level 275 on): an upload that is an image the server thumbnails gets
// Zulip's ImageAttachment facts (size, frames); messages preview it by its
// default thumbnail, or by a loading placeholder until the thumbnails are
// made, which then rewrites each linking message and tells its readers
// with a rendering_only update_message, as Zulip's thumbnail worker does.
// Thumbnails are served, to whoever may read the file, under
// /user_uploads/thumbnail/<path_id>/<format>.

// WithThumbnailDelay makes image thumbnails d after each upload, by the
// realm's clock, instead of with the upload: until then messages linking
// the image show Zulip's loading placeholder, and when they are made
// those messages are rewritten with a rendering_only update_message, as
// when Zulip's thumbnailing queue is behind.
func WithThumbnailDelay(d time.Duration) Option {
	return func(o *Options) { o.ThumbnailDelay = max(d, 0) }
}

// WithThumbnailCacheBytes bounds the bytes of made thumbnails the realm
// keeps (upload.DefaultThumbnailCacheBytes unless set); a thumbnail that
// was let go is made again when asked for.
func WithThumbnailCacheBytes(n int64) Option {
	return func(o *Options) { o.ThumbnailCacheBytes = max(n, 0) }
}

// thumbnailCache keeps made thumbnails (an upload.ThumbnailCache): a
// service snapshots and forks share, as they share the upload store.
type thumbnailCache interface {
	Get(pathID string, f upload.ThumbnailFormat, build func() (upload.Thumbnail, error)) (upload.Thumbnail, error)
	Forget(pathID string)
}

// imageProbe is what an upload's bytes said before it was recorded.
type imageProbe struct {
	info        *upload.ImageInfo
	thumbnailed bool
}

// probeImage looks at a stored upload as Zulip does once it is uploaded:
// an image the server thumbnails gets its facts and, unless thumbnails
// are delayed, its default thumbnail now; one whose thumbnail cannot be
// made is no image (Zulip deletes its ImageAttachment row). It reads the
// upload store, without the lock.
func (r *Realm) probeImage(store upload.Store, thumbs thumbnailCache, pathID, contentType string) imageProbe {
	if !r.has(changeThumbnailing) || !upload.IsThumbnailedType(contentType) {
		return imageProbe{}
	}
	data, err := readBlob(store, pathID)
	if err != nil {
		return imageProbe{}
	}
	info, err := upload.ProbeImage(data, contentType)
	if err != nil {
		return imageProbe{}
	}
	if r.opts.ThumbnailDelay > 0 {
		return imageProbe{info: &info}
	}
	if makeDefaultThumbnail(thumbs, pathID, data, info) != nil {
		return imageProbe{}
	}
	return imageProbe{info: &info, thumbnailed: true}
}

// makeDefaultThumbnail makes (and keeps) the thumbnail messages show.
func makeDefaultThumbnail(thumbs thumbnailCache, pathID string, data []byte, info upload.ImageInfo) error {
	f := upload.DefaultThumbnailFormat(info.Animated())
	_, err := thumbs.Get(pathID, f, func() (upload.Thumbnail, error) { return upload.MakeThumbnail(data, info.ContentType, f) })
	return err
}

// readBlob is a stored file's bytes.
func readBlob(store upload.Store, pathID string) ([]byte, error) {
	t := uploadTable{store: store}
	return t.read(pathID)
}

// armThumbnailing makes att's thumbnails ThumbnailDelay after now, then
// rewrites the messages linking it. The caller holds the write lock.
func (r *Realm) armThumbnailing(att *storedAttachment) {
	if att.image == nil || att.thumbnailed {
		return
	}
	id, pathID, info := att.id, att.pathID, *att.image
	store, thumbs := r.files.store, r.files.thumbs
	r.clock.AfterFunc(r.opts.ThumbnailDelay, func() {
		data, err := readBlob(store, pathID)
		if err == nil {
			err = makeDefaultThumbnail(thumbs, pathID, data, info)
		}
		_ = r.update(func() error {
			if att := r.files.byID[id]; att != nil && att.pathID == pathID && att.image != nil && !att.thumbnailed {
				r.finishThumbnailing(att, err == nil)
			}
			return nil
		})
	})
}

// finishThumbnailing records that att's thumbnails are made (ok) or
// cannot be (the file is no image after all), and rewrites the loading
// placeholders of the messages linking it: into the thumbnail, or away.
// The caller holds the write lock.
func (r *Realm) finishThumbnailing(att *storedAttachment, ok bool) {
	var img *markdown.UploadImage
	if ok {
		att.thumbnailed = true
		v := uploadImageOf(att)
		img = &v
	} else {
		att.image = nil
	}
	th := r.thumbnailMarkup()
	if th == nil {
		return
	}
	for _, id := range att.messageIDs {
		m, found := r.messages.store.Message(id)
		if !found {
			continue
		}
		html, changed := th.ReplaceUploadPlaceholder(m.Rendered, att.pathID, img)
		if !changed {
			continue
		}
		m = r.ownMessage(m)
		m.Rendered = html
		r.emitRenderingUpdate(m)
	}
}

// RenderingUpdateEvent is the update_message Zulip sends when only a
// message's rendering changed (do_update_embedded_data): no user, no
// edit history.
type RenderingUpdateEvent struct {
	UserID          *int     `json:"user_id"`
	EditTimestamp   int64    `json:"edit_timestamp"`
	MessageID       int64    `json:"message_id"`
	MessageIDs      []int64  `json:"message_ids"`
	Flags           []string `json:"flags"`
	Content         string   `json:"content"`
	RenderedContent string   `json:"rendered_content"`
	RenderingOnly   bool     `json:"rendering_only"`
}

// emitRenderingUpdate tells every active holder of a copy of m, with
// their flags, of its new rendering.
func (r *Realm) emitRenderingUpdate(m *message.Message) {
	byFlags := map[message.Flags][]int{}
	for uid, u := range r.users.byID {
		if c, ok := r.messages.store.Copy(uid, m.ID); ok && u.IsActive {
			byFlags[c.Flags] = append(byFlags[c.Flags], uid)
		}
	}
	now := r.clock.Now().Unix()
	for _, f := range slices.Sorted(maps.Keys(byFlags)) {
		uids := byFlags[f]
		slices.Sort(uids)
		r.emit("update_message", RenderingUpdateEvent{EditTimestamp: now, MessageID: m.ID, MessageIDs: []int64{m.ID},
			Flags: flagNames(f, r.has(changeWildcardMentionFlags)), Content: m.Content, RenderedContent: m.Rendered, RenderingOnly: true}, uids...)
	}
}

// thumbnailMarkup is how the realm's feature level previews uploaded
// images; nil below thumbnailingLevel (the older /thumbnail?url= form).
func (r *Realm) thumbnailMarkup() *markdown.Thumbnails {
	if !r.has(changeThumbnailing) {
		return nil
	}
	return &markdown.Thumbnails{Image: markdownLookup{r: r}.uploadImage, Dimensions: r.has(changeThumbnailDimensions),
		PlaceholderDimensions: r.placeholderDimensions(), ContentType: r.has(changeThumbnailContentType)}
}

// uploadImage describes the uploaded image at pathID for its preview.
func (l markdownLookup) uploadImage(pathID string) (markdown.UploadImage, bool) {
	att := l.r.files.byPath[pathID]
	if att == nil || att.image == nil {
		return markdown.UploadImage{}, false
	}
	return uploadImageOf(att), true
}

func uploadImageOf(att *storedAttachment) markdown.UploadImage {
	img := markdown.UploadImage{Width: att.image.Width, Height: att.image.Height,
		ContentType: att.image.ContentType, Animated: att.image.Animated()}
	if att.thumbnailed {
		img.Src = thumbnailURL(att.pathID, upload.DefaultThumbnailFormat(att.image.Animated()))
	}
	return img
}

// thumbnailURL is where a thumbnail of an upload is served.
func thumbnailURL(pathID string, f upload.ThumbnailFormat) string {
	return "/user_uploads/thumbnail/" + pathID + "/" + f.Name()
}

// ThumbnailFormat is one entry of register's server_thumbnail_formats.
type ThumbnailFormat struct {
	Name      string `json:"name"`
	MaxWidth  int    `json:"max_width"`
	MaxHeight int    `json:"max_height"`
	Format    string `json:"format"`
	Animated  bool   `json:"animated"`
}

// serverThumbnailFormats is register's server_thumbnail_formats; nil
// below serverThumbnailFormatsLevel.
func (r *Realm) serverThumbnailFormats() []ThumbnailFormat {
	if !r.has(changeServerThumbnailFormats) {
		return nil
	}
	out := make([]ThumbnailFormat, 0, len(upload.ThumbnailFormats))
	for _, f := range upload.ThumbnailFormats {
		out = append(out, ThumbnailFormat{Name: f.Name(), MaxWidth: f.MaxWidth, MaxHeight: f.MaxHeight, Format: f.Extension, Animated: f.Animated})
	}
	return out
}

// OpenThumbnail opens a thumbnail of the file at pathID in the format
// named (GET /user_uploads/thumbnail/<path_id>/<format>) for the acting
// user, who gets exactly the answers the file itself gives (404 for a
// file that does not exist, 403 for one the user may not read); a file
// that is no thumbnailed image, a format name that is none, or an image
// whose thumbnail cannot be made is not found. A format the server does
// not make is answered with the nearest it makes, as Zulip does.
func (a *Actor) OpenThumbnail(ctx context.Context, pathID, format string) (*UploadedFile, error) {
	var req thumbnailRequest
	err := a.read(ctx, func(me *user.User) (err error) {
		req, err = a.r.thumbnailRequest(me, pathID, format)
		return err
	})
	if err != nil {
		return nil, err
	}
	return req.open()
}

// OpenThumbnailAsVisitor opens a thumbnail for a request without
// credentials: only of files linked from web-public channels.
func (r *Realm) OpenThumbnailAsVisitor(ctx context.Context, pathID, format string) (*UploadedFile, error) {
	var req thumbnailRequest
	err := r.view(func() (err error) {
		req, err = r.thumbnailRequest(nil, pathID, format)
		return err
	})
	if err != nil {
		return nil, err
	}
	return req.open()
}

// thumbnailRequest is a permitted thumbnail request, made without the
// lock.
type thumbnailRequest struct {
	store  upload.Store
	thumbs thumbnailCache
	pathID string
	info   upload.ImageInfo
	format upload.ThumbnailFormat
}

// thumbnailRequest checks a thumbnail request. The caller holds the lock.
func (r *Realm) thumbnailRequest(reader *user.User, pathID, format string) (thumbnailRequest, error) {
	att := r.files.byPath[pathID]
	if !r.has(changeThumbnailing) || att == nil {
		return thumbnailRequest{}, fileNotFound()
	}
	if !r.mayReadAttachment(reader, att) {
		return thumbnailRequest{}, fileNotAuthorized()
	}
	f, ok := upload.ParseThumbnailFormat(format)
	if att.image == nil || !ok {
		return thumbnailRequest{}, fileNotFound()
	}
	return thumbnailRequest{store: r.files.store, thumbs: r.files.thumbs, pathID: pathID, info: *att.image,
		format: upload.ServedThumbnailFormat(f, *att.image)}, nil
}

// open makes (or finds) the thumbnail.
func (q thumbnailRequest) open() (*UploadedFile, error) {
	th, err := q.thumbs.Get(q.pathID, q.format, func() (upload.Thumbnail, error) {
		data, err := readBlob(q.store, q.pathID)
		if err != nil {
			return upload.Thumbnail{}, err
		}
		return upload.MakeThumbnail(data, q.info.ContentType, q.format)
	})
	if err != nil {
		return nil, fileNotFound()
	}
	return &UploadedFile{Blob: upload.NewBytesBlob(th.Data), Name: q.format.Name(), ContentType: cmp.Or(th.ContentType, q.format.ContentType())}, nil
}

// loadImage looks at a file a fixture loaded as an image (thumbnailed at
// once) and re-renders the loaded messages linking it, which were
// rendered before the file was there. The caller holds the write lock.
func (r *Realm) loadImage(att *storedAttachment, data []byte) {
	if att == nil || !r.has(changeThumbnailing) || !upload.IsThumbnailedType(att.contentType) {
		return
	}
	info, err := upload.ProbeImage(data, att.contentType)
	if err != nil {
		return
	}
	att.image, att.thumbnailed = &info, true
	for _, id := range att.messageIDs {
		m, ok := r.messages.store.Message(id)
		if !ok {
			continue
		}
		res := r.renderAs(r.users.byID[m.SenderID], m.Content)
		if res.HTML != m.Rendered {
			m = r.ownMessage(m)
			m.Rendered, m.Facts = res.HTML, factsOf(res)
		}
	}
}
