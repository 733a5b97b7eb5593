package realm

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/minizulip/minizulip/upload"
)

// endless is a body that never ends, counting what was read from it.
type endless struct{ read int64 }

func (e *endless) Read(p []byte) (int, error) {
	e.read += int64(len(p))
	return len(p), nil
}

func smallLimit() Option {
	l := DefaultLimits()
	l.MaxFileUploadSizeMiB = 1
	return WithLimits(l)
}

func TestUploadStopsReadingAtTheLimit(t *testing.T) {
	r, _ := newTestRealm(t, smallLimit())
	hamlet, _ := r.UserIDByEmail("hamlet@zulip.com")
	body := &endless{}
	_, err := r.As(hamlet).Upload(bg, UploadRequest{Name: "huge.bin", Body: body})
	wantCode(t, err, CodeBadRequest, "Uploaded file is larger than the allowed limit of 1 MiB")
	if body.read > upload.MiB+64<<10 {
		t.Fatalf("read %d bytes of an endless body with a 1 MiB limit", body.read)
	}
	if n := r.UploadStore().(*upload.MemoryStore).Len(); n != 0 {
		t.Fatalf("%d blobs kept", n)
	}
}

func TestUploadBodyErrorsPassThrough(t *testing.T) {
	r, _ := newTestRealm(t)
	hamlet, _ := r.UserIDByEmail("hamlet@zulip.com")
	refusal := BadRequest("You may only upload one file at a time")
	body := io.MultiReader(strings.NewReader("first file"), errBody{refusal})
	_, err := r.As(hamlet).Upload(bg, UploadRequest{Name: "a.txt", Body: body})
	if err != refusal {
		t.Fatalf("error %v, want the body's own", err)
	}
	_, err = r.As(hamlet).Upload(bg, UploadRequest{Name: "a.txt", Body: errBody{errors.New("connection reset")}})
	wantCode(t, err, CodeBadRequest, "Could not read the uploaded file")
	if n := r.UploadStore().(*upload.MemoryStore).Len(); n != 0 {
		t.Fatalf("%d blobs kept", n)
	}
	if res, _ := r.As(hamlet).Attachments(bg); len(res.Attachments) != 0 {
		t.Fatalf("attachments %v", res.Attachments)
	}
	_, err = r.As(9999).Upload(bg, UploadRequest{Name: "a.txt", Body: strings.NewReader("x")})
	wantCode(t, err, CodeUnauthorized, "")
}

type errBody struct{ err error }

func (e errBody) Read([]byte) (int, error) { return 0, e.err }

// gate is a body that blocks until released, to hold a PATCH open.
type gate struct {
	started chan struct{}
	release chan struct{}
	data    []byte
	once    sync.Once
}

func (g *gate) Read(p []byte) (int, error) {
	g.once.Do(func() { close(g.started) })
	<-g.release
	if len(g.data) == 0 {
		return 0, io.EOF
	}
	n := copy(p, g.data)
	g.data = g.data[n:]
	return n, nil
}

func TestResumableUploadOneWriterAtATime(t *testing.T) {
	r, _ := newTestRealm(t)
	hamlet, _ := r.UserIDByEmail("hamlet@zulip.com")
	a := r.As(hamlet)
	prog, err := a.StartResumableUpload(bg, ResumableUploadRequest{Name: "x.txt", Length: 6})
	if err != nil {
		t.Fatal(err)
	}
	g := &gate{started: make(chan struct{}), release: make(chan struct{}), data: []byte("abc")}
	done := make(chan ResumableProgress)
	go func() {
		p, err := a.AppendResumableUpload(bg, prog.PathID, 0, g)
		if err != nil {
			t.Error(err)
		}
		done <- p
	}()
	<-g.started
	// While the first request streams, the realm is not locked and a
	// second writer is refused.
	_, err = a.AppendResumableUpload(bg, prog.PathID, 0, strings.NewReader("zzz"))
	if re := wantCode(t, err, CodeBadRequest, "locked"); re.Status != 423 {
		t.Fatalf("status %d", re.Status)
	}
	err = a.CancelResumableUpload(bg, prog.PathID)
	wantCode(t, err, CodeBadRequest, "locked")
	if res, err := a.Attachments(bg); err != nil || len(res.Attachments) != 0 {
		t.Fatalf("reading while an upload streams: %v %v", res, err)
	}
	close(g.release)
	if p := <-done; p.Offset != 3 || p.Done {
		t.Fatalf("progress %+v", p)
	}
	p, err := a.AppendResumableUpload(bg, prog.PathID, 3, strings.NewReader("def"))
	if err != nil || !p.Done || p.Result.Filename != "x.txt" {
		t.Fatalf("finish: %+v %v", p, err)
	}
	f, err := a.OpenUpload(bg, prog.PathID)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(f.Blob)
	f.Blob.Close()
	if string(got) != "abcdef" || f.ContentType != "text/plain" {
		t.Fatalf("file %q %q", got, f.ContentType)
	}
}

func TestResumableUploadInterruptedKeepsItsBytes(t *testing.T) {
	r, _ := newTestRealm(t)
	hamlet, _ := r.UserIDByEmail("hamlet@zulip.com")
	a := r.As(hamlet)
	prog, _ := a.StartResumableUpload(bg, ResumableUploadRequest{Name: "x.bin", Length: 10})
	_, err := a.AppendResumableUpload(bg, prog.PathID, 0, io.MultiReader(strings.NewReader("0123"), errBody{errors.New("reset")}))
	wantCode(t, err, CodeBadRequest, "")
	p, err := a.ResumableUploadOffset(bg, prog.PathID)
	if err != nil || p.Offset != 4 {
		t.Fatalf("offset after an interrupted PATCH: %+v %v", p, err)
	}
	if p, err := a.AppendResumableUpload(bg, prog.PathID, 4, strings.NewReader("456789")); err != nil || !p.Done {
		t.Fatalf("resume: %+v %v", p, err)
	}
}

func TestAbandonedResumableUploadsAreDropped(t *testing.T) {
	r, clock := newTestRealm(t)
	hamlet, _ := r.UserIDByEmail("hamlet@zulip.com")
	a := r.As(hamlet)
	prog, _ := a.StartResumableUpload(bg, ResumableUploadRequest{Name: "x.bin", Length: 10})
	_, _ = a.AppendResumableUpload(bg, prog.PathID, 0, bytes.NewReader([]byte("01234")))
	clock.Advance(ResumableUploadLifetime - time.Second)
	if _, err := a.ResumableUploadOffset(bg, prog.PathID); err != nil {
		t.Fatalf("dropped too early: %v", err)
	}
	clock.Advance(time.Second)
	_, err := a.ResumableUploadOffset(bg, prog.PathID)
	if re := wantCode(t, err, CodeBadRequest, "Upload not found"); re.Status != 404 {
		t.Fatalf("status %d", re.Status)
	}
	if n := r.UploadStore().(*upload.MemoryStore).Len(); n != 0 {
		t.Fatalf("%d blobs kept", n)
	}
}

func TestMovingAMessageKeepsItsFilesLinked(t *testing.T) {
	r, _ := newTestRealm(t)
	hamlet, _ := r.UserIDByEmail("hamlet@zulip.com")
	othello, _ := r.UserIDByEmail("othello@zulip.com")
	res, err := r.As(hamlet).Upload(bg, UploadRequest{Name: "a.txt", Body: strings.NewReader("a")})
	if err != nil {
		t.Fatal(err)
	}
	core, _ := r.As(hamlet).ChannelID(bg, "core team")
	sent := send(t, r, hamlet, "Denmark", "t", "[a](/user_uploads/"+res.PathID+")")
	if _, err := r.As(othello).OpenUpload(bg, res.PathID); err != nil {
		t.Fatalf("public link: %v", err)
	}
	// Moved to a private channel othello is not in: the file follows.
	iago, _ := r.UserIDByEmail("iago@zulip.com")
	if _, err := r.As(iago).UpdateMessage(bg, UpdateMessageRequest{MessageID: sent, ChannelID: &core}); err != nil {
		t.Fatal(err)
	}
	_, err = r.As(othello).OpenUpload(bg, res.PathID)
	if re := wantCode(t, err, CodeBadRequest, "not authorized"); re.Status != 403 {
		t.Fatalf("status %d", re.Status)
	}
	if list, _ := r.As(hamlet).Attachments(bg); len(list.Attachments[0].MessageIDs) != 1 {
		t.Fatalf("the move unlinked the file: %+v", list)
	}
}
