package httpapi

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"mime/multipart"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"
	"time"
)

// tooManyFieldsMsg is Django's TooManyFieldsSent.
const tooManyFieldsMsg = "The number of GET/POST parameters exceeded settings.DATA_UPLOAD_MAX_NUMBER_FIELDS."

// fieldsForm is an urlencoded form of n fields: the given ones, then
// filler fields f0, f1… up to n.
func fieldsForm(n int, given url.Values) string {
	fields := []string{}
	if len(given) > 0 {
		fields = append(fields, given.Encode())
	}
	for i := len(given); i < n; i++ {
		fields = append(fields, "f"+strconv.Itoa(i)+"=")
	}
	return strings.Join(fields, "&")
}

func TestFormFieldsPastDjangosLimitAreRefused(t *testing.T) {
	e := newMsgEnv(t)
	send := url.Values{"type": {"stream"}, "to": {"Denmark"}, "topic": {"fields"}, "content": {"counted"}}
	post := func(form string) (int, map[string]any) {
		req, _ := http.NewRequest("POST", e.srv.URL+"/api/v1/messages", strings.NewReader(form))
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		e.auth(req, "hamlet@zulip.com")
		return e.doJSON(req)
	}
	before, _ := e.realm.Dump()

	status, body := post(fieldsForm(1001, send))
	e.fail(status, body, 400, "BAD_REQUEST", tooManyFieldsMsg)
	if after, _ := e.realm.Dump(); !bytes.Equal(before, after) {
		t.Fatal("a refused request changed the realm")
	}
	// Django counts one field more than the '&': 1000 empty fields
	// passes, 1001 does not.
	status, body = post(strings.Repeat("&", 1000))
	e.fail(status, body, 400, "BAD_REQUEST", tooManyFieldsMsg)

	// 1000 fields are served; the fillers come back as ignored.
	status, body = post(fieldsForm(1000, send))
	if ign, _ := e.success(status, body)["ignored_parameters_unsupported"].([]any); len(ign) != 1000-len(send) {
		t.Fatalf("ignored %d parameters, want %d", len(ign), 1000-len(send))
	}

	// The query string counts on its own, as Django's request.GET.
	req, _ := http.NewRequest("GET", e.srv.URL+"/api/v1/users/me?"+fieldsForm(1001, nil), nil)
	e.auth(req, "hamlet@zulip.com")
	status, body = e.doJSON(req)
	e.fail(status, body, 400, "BAD_REQUEST", tooManyFieldsMsg)
	req, _ = http.NewRequest("GET", e.srv.URL+"/api/v1/users/me?"+fieldsForm(1000, nil), nil)
	e.auth(req, "hamlet@zulip.com")
	e.success(e.doJSON(req))

	// A file URL's query string too, where it is read for api_key.
	req, _ = http.NewRequest("GET", e.srv.URL+"/user_uploads/2/ab/cd/x.txt?"+fieldsForm(1001, nil), nil)
	status, body = e.doJSON(req)
	e.fail(status, body, 400, "BAD_REQUEST", tooManyFieldsMsg)
}

// multipartForm is a multipart body of n plain fields.
func multipartForm(n int) (body []byte, contentType string) {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	for i := range n {
		_ = w.WriteField("f"+strconv.Itoa(i), "v")
	}
	_ = w.Close()
	return buf.Bytes(), w.FormDataContentType()
}

func TestMultipartFieldsPastDjangosLimitAreRefused(t *testing.T) {
	e := newMsgEnv(t)
	post := func(n int) (int, map[string]any) {
		body, ct := multipartForm(n)
		req, _ := http.NewRequest("PATCH", e.srv.URL+"/api/v1/settings", bytes.NewReader(body))
		req.Header.Set("Content-Type", ct)
		e.auth(req, "hamlet@zulip.com")
		return e.doJSON(req)
	}
	status, body := post(1001)
	e.fail(status, body, 400, "BAD_REQUEST", tooManyFieldsMsg)
	status, body = post(1000)
	e.success(status, body)
}

func TestFloodLength(t *testing.T) {
	for _, n := range []int{1, 9, 10, 11, 99, 100, 1234} {
		got, _ := io.Copy(io.Discard, &fieldFlood{n: n})
		if got != floodLength(n) {
			t.Fatalf("%d fields: %d bytes, floodLength says %d", n, got, floodLength(n))
		}
	}
}

func TestPartCounterCountsDelimitersAcrossReads(t *testing.T) {
	for _, n := range []int{0, 1, 7, 1000, 1001} {
		body, ct := multipartForm(n)
		_, boundary, _ := strings.Cut(ct, "boundary=")
		for _, wrap := range []func(io.Reader) io.Reader{iotest.OneByteReader, iotest.HalfReader, func(r io.Reader) io.Reader { return r }} {
			c := newPartCounter(wrap(bytes.NewReader(body)), boundary)
			if _, err := io.Copy(io.Discard, c); err != nil || n > 0 && c.seen != n {
				t.Fatalf("%d parts: counted %d, %v", n, c.seen, err)
			}
		}
	}
}

// fieldFlood is an urlencoded body of n distinct empty fields, made as it
// is read, without allocating, so that the client holds none of it.
type fieldFlood struct {
	next, n int
	field   [24]byte
	pending []byte // the unsent rest of field
}

func (f *fieldFlood) Read(p []byte) (int, error) {
	w := 0
	for w < len(p) {
		if len(f.pending) == 0 {
			if f.next == f.n {
				break
			}
			b := append(f.field[:0], 'f')
			b = strconv.AppendInt(b, int64(f.next), 10)
			b = append(b, '=')
			if f.next < f.n-1 {
				b = append(b, '&')
			}
			f.pending = b
			f.next++
		}
		c := copy(p[w:], f.pending)
		f.pending = f.pending[c:]
		w += c
	}
	if w == 0 {
		return 0, io.EOF
	}
	return w, nil
}

// floodLength is the length of a fieldFlood of n fields.
func floodLength(n int) int64 {
	var total int64
	for digits, lo, hi := int64(1), 0, 10; lo < n; digits, lo, hi = digits+1, hi, hi*10 {
		total += int64(min(n, hi)-lo) * (digits + 3) // "f", the digits, "=", "&"
	}
	return total - 1
}

// rawPost sends a POST with body of length bytes to path over its own
// connection, writing and reading at once (the server may answer before
// the body has arrived), and returns the answer's status and body.
func rawPost(t testing.TB, addr, path, email, key, contentType string, body io.Reader, length int64) (int, string) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	_ = conn.SetDeadline(time.Now().Add(time.Minute))
	go func() {
		fmt.Fprintf(conn, "POST %s HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: %s\r\nContent-Length: %d\r\n", path, contentType, length)
		if email != "" {
			req := http.Request{Header: http.Header{}}
			req.SetBasicAuth(email, key)
			fmt.Fprintf(conn, "Authorization: %s\r\n", req.Header.Get("Authorization"))
		}
		fmt.Fprint(conn, "\r\n")
		_, _ = io.Copy(conn, body) // fails once the server has answered and closed
	}()
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	answer, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(answer)
}

// TestFiveMillionFieldsCostNoMemory sends the body of the probe: about 60
// MB with 5 million distinct names. It is refused with Django's 400 once
// field 1001 begins, and the server's heap grows by little more than the
// few kilobytes it read, against the idle heap measured just before.
func TestFiveMillionFieldsCostNoMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("streams 60 MB")
	}
	ts := RunT(t)
	creds := ts.Creds("hamlet@zulip.com")
	addr := strings.TrimPrefix(ts.URL, "http://")
	const fields = 5_000_000
	length := floodLength(fields)
	idleRSS, idleHeap := memoryInUse()
	peak := startHeapPeak()
	status, body := rawPost(t, addr, "/api/v1/messages", creds.Email, creds.APIKey, "application/x-www-form-urlencoded",
		&fieldFlood{n: fields}, length)
	peak.sample()
	close(peak.stop)
	peak.wg.Wait()
	rss, heap := memoryInUse()
	if status != 400 || !strings.Contains(body, tooManyFieldsMsg) {
		t.Fatalf("answer %d %s", status, body)
	}
	t.Logf("%d fields (%.1f MB): idle heap %.1f MiB, peak growth %.1f MiB, after %.1f MiB; RSS idle %.1f MiB, after %.1f MiB",
		fields, float64(length)/1e6, mib(idleHeap), mib(int64(peak.maxGrown)), mib(heap), mib(idleRSS), mib(rss))
	if peak.maxGrown > 16<<20 {
		t.Fatalf("the heap grew by %.1f MiB for a refused body", mib(int64(peak.maxGrown)))
	}
}

// BenchmarkFormBodyMemory reports the peak heap growth of parsing one
// form body: the 5-million-field body (refused), a body of 1000 fields
// (the most served) and a single field of 60 MB, whose bytes the server
// must hold.
func BenchmarkFormBodyMemory(b *testing.B) {
	ts := RunT(b)
	creds := ts.Creds("hamlet@zulip.com")
	addr := strings.TrimPrefix(ts.URL, "http://")
	cases := []struct {
		name    string
		body    func() (io.Reader, int64)
		refused bool // with errTooManyFields
	}{
		{"5M-fields", func() (io.Reader, int64) { return &fieldFlood{n: 5_000_000}, floodLength(5_000_000) }, true},
		{"1000-fields", func() (io.Reader, int64) { return &fieldFlood{n: 1000}, floodLength(1000) }, false},
		{"one-60MB-field", func() (io.Reader, int64) {
			head := "status_text="
			return io.MultiReader(strings.NewReader(head), io.LimitReader(repeatByte('a'), 60e6)), int64(len(head)) + 60e6
		}, false},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			peak := startHeapPeak()
			for b.Loop() {
				body, n := c.body()
				peak.reset()
				// The status endpoint refuses what it is sent in every
				// case; what counts is the memory parsing took.
				status, answer := rawPost(b, addr, "/api/v1/users/me/status", creds.Email, creds.APIKey,
					"application/x-www-form-urlencoded", body, n)
				if status != 400 || strings.Contains(answer, tooManyFieldsMsg) != c.refused {
					b.Fatalf("answer %d %.200s", status, answer)
				}
				peak.sample()
			}
			peak.report(b)
		})
	}
}

// repeatByte is an endless reader of one byte.
type repeatByte byte

func (r repeatByte) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = byte(r)
	}
	return len(p), nil
}
