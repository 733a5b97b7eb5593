package httpapi

import (
	"io"
	"net/http"
	"slices"
	"strconv"

	"github.com/minizulip/minizulip/realm"
)

func realmEmojiRoutes() []route {
	return []route{
		{method: "GET", path: "/realm/emoji", h: listRealmEmoji},
		{method: "POST", path: "/realm/emoji/{emoji_name}", h: uploadRealmEmoji},
		{method: "DELETE", path: "/realm/emoji/{emoji_name}", h: deactivateRealmEmoji},
	}
}

// realmEmojiAnswer is the body of GET /realm/emoji.
type realmEmojiAnswer struct {
	Emoji map[string]realm.RealmEmoji `json:"emoji"`
}

func listRealmEmoji(c *call) (any, error) {
	list, err := c.actor.RealmEmojiList(c.ctx())
	if err != nil {
		return nil, err
	}
	return realmEmojiAnswer{Emoji: list}, nil
}

// uploadRealmEmoji passes the realm every file field of the multipart
// body (the last file of a repeated field, as Django reads it).
func uploadRealmEmoji(c *call) (any, error) {
	up := realm.EmojiUpload{Name: c.req.PathValue("emoji_name")}
	fields := make([]string, 0, len(c.p.files))
	for field := range c.p.files {
		fields = append(fields, field)
	}
	slices.Sort(fields)
	for _, field := range fields {
		headers := c.p.files[field]
		if len(headers) == 0 {
			continue
		}
		fh := headers[len(headers)-1]
		f, err := fh.Open()
		if err != nil {
			return nil, realm.BadRequest("Could not read the uploaded file")
		}
		data, err := io.ReadAll(f)
		f.Close()
		if err != nil {
			return nil, realm.BadRequest("Could not read the uploaded file")
		}
		up.Files = append(up.Files, realm.EmojiFile{Name: fh.Filename, Data: data})
	}
	return nil, c.actor.AddRealmEmoji(c.ctx(), up)
}

func deactivateRealmEmoji(c *call) (any, error) {
	return nil, c.actor.DeactivateRealmEmoji(c.ctx(), c.req.PathValue("emoji_name"))
}

// handleEmojiImages serves custom emoji images at their source_url, to
// anyone, as Zulip's local upload backend serves /user_avatars/.
func (rt *router) handleEmojiImages() {
	rt.mux.Handle("GET "+realm.EmojiImagePrefix+"{file...}", serverHandler(func(s *Server, w http.ResponseWriter, req *http.Request) {
		data, contentType, ok := s.realm.RealmEmojiImage(req.PathValue("file"))
		if !ok {
			writeNotFound(w)
			return
		}
		h := w.Header()
		h.Set("Content-Type", contentType)
		h.Set("Content-Length", strconv.Itoa(len(data)))
		h.Set("Cache-Control", "public, max-age=86400")
		w.WriteHeader(http.StatusOK)
		if req.Method != http.MethodHead {
			_, _ = w.Write(data)
		}
	}))
}
