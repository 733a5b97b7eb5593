package realm

import "github.com/minizulip/minizulip/emoji"

// ServerEmojiDataPath is where the server's Unicode emoji names are
// served; register's server_emoji_data_url points there. Zulip serves a
// static file at this path, fetched without authentication.
const ServerEmojiDataPath = "/static/generated/emoji/emoji_api.json"

// ServerEmojiData is the file at server_emoji_data_url.
type ServerEmojiData struct {
	// CodeToNames maps each Unicode emoji's code (without the
	// presentation selector fe0f) to its canonical name, then its aliases.
	CodeToNames map[string][]string `json:"code_to_names"`
}

// ServerEmojiData is the server's Unicode emoji names, as clients fetch
// them from server_emoji_data_url. It reads no realm state.
func (r *Realm) ServerEmojiData() ServerEmojiData {
	return ServerEmojiData{CodeToNames: emoji.CodeToNames()}
}
