package realm

import (
	"bytes"
	"strings"
	"testing"
)

// ![name](upload) of an uploaded audio file is an <audio> player from
// feature level 405; before, "!" and a link.
func TestAudioPlayersFollowFeatureLevel(t *testing.T) {
	belowAndAt(t, changeAudioPlayers, func(t *testing.T, r *Realm, has bool) {
		up, err := r.As(idHamlet).Upload(bg, UploadRequest{Name: "song.mp3", ContentType: "audio/mpeg", Body: strings.NewReader("ID3 not really")})
		must(t, err)
		href := "/user_uploads/" + up.PathID
		content := "![song.mp3](" + href + ")"
		if has {
			wantRendered(t, r, idHamlet, content, `<p><audio controls preload="metadata" src="`+href+`" title="song.mp3"></audio></p>`)
		} else {
			wantRendered(t, r, idHamlet, content, `<p>!<a href="`+href+`">song.mp3</a></p>`, "<audio")
		}
		// A file that is not audio stays a link at every level.
		txt, err := r.As(idHamlet).Upload(bg, UploadRequest{Name: "notes.txt", ContentType: "text/plain", Body: strings.NewReader("words")})
		must(t, err)
		wantRendered(t, r, idHamlet, "![notes](/user_uploads/"+txt.PathID+")", `!<a href="/user_uploads/`+txt.PathID+`">notes</a>`, "<audio")
	})
}

// ![alt](upload) of an uploaded image is an <img class="inline-image">
// from feature level 437; before, "!" and a link with its preview.
func TestImageSyntaxFollowsFeatureLevel(t *testing.T) {
	belowAndAt(t, changeImageSyntax, func(t *testing.T, r *Realm, has bool) {
		up, err := r.As(idHamlet).Upload(bg, UploadRequest{Name: "pic.png", ContentType: "image/png", Body: bytes.NewReader(testImage(t, 900, 300))})
		must(t, err)
		href := "/user_uploads/" + up.PathID
		content := "see ![a pic](" + href + ")"
		if has {
			wantRendered(t, r, idHamlet, content, `<p>see <img alt="a pic" class="inline-image" data-original-content-type="image/png" data-original-dimensions="900x300" data-original-src="`+href+`" src="/user_uploads/thumbnail/`+up.PathID+`/840x560.png"></p>`, "message_inline_image")
		} else {
			wantRendered(t, r, idHamlet, content, `<p>see !<a href="`+href+`">a pic</a></p>`, "inline-image")
		}
		// A third-party image URL is "!" and a link at every level.
		wantRendered(t, r, idHamlet, "![x](https://example.com/x.png)", `!<a href="https://example.com/x.png">x</a>`, "inline-image")
	})
}
