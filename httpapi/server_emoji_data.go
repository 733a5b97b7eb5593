package httpapi

import (
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/minizulip/minizulip/realm"
)

// handleServerEmojiData serves the file register's server_emoji_data_url
// names, to anyone: a bare JSON object (code_to_names), without Zulip's
// result envelope, as Zulip serves it as a static file.
func (rt *router) handleServerEmojiData() {
	rt.mux.Handle("GET "+realm.ServerEmojiDataPath, serverHandler(func(s *Server, w http.ResponseWriter, req *http.Request) {
		data, err := json.Marshal(s.realm.ServerEmojiData())
		if err != nil {
			writeError(w, err)
			return
		}
		h := w.Header()
		h.Set("Content-Type", "application/json")
		h.Set("Content-Length", strconv.Itoa(len(data)))
		h.Set("Cache-Control", "public, max-age=86400")
		w.WriteHeader(http.StatusOK)
		if req.Method != http.MethodHead {
			_, _ = w.Write(data)
		}
	}))
}
