package upload

import (
	"regexp"
	"strings"
	"testing"
)

func TestNewPathIDHasZulipsShape(t *testing.T) {
	shape := regexp.MustCompile(`^2/[0-9a-f]{1,2}/[A-Za-z0-9_-]{24}/zulip\.txt$`)
	seen := map[string]bool{}
	for i := 0; i < 200; i++ {
		p := NewPathID(2, "zulip.txt")
		if !shape.MatchString(p) {
			t.Fatalf("path_id %q is not realm/dir/token/name", p)
		}
		if dir := strings.Split(p, "/")[1]; len(dir) == 2 && dir[0] == '0' {
			t.Fatalf("dir %q is padded", dir)
		}
		if seen[p] {
			t.Fatalf("path_id %q repeated", p)
		}
		seen[p] = true
		if !ValidPathID(p) {
			t.Fatalf("own path_id %q refused", p)
		}
	}
}

func TestSanitizeName(t *testing.T) {
	for in, want := range map[string]string{
		"zulip.txt":              "zulip.txt",
		"My Photo (1).PNG":       "My-Photo-1.PNG",
		"  spaced   out - name ": "spaced-out-name",
		"../../etc/passwd":       "....etcpasswd",
		"..":                     "uploaded-file",
		".":                      "uploaded-file",
		"":                       "uploaded-file",
		"%%%":                    "uploaded-file",
		"ﬁle.txt":                "file.txt", // NFKC folds the ligature
		"café_ünï.md":            "café_ünï.md",
		"a\\b/c:d*e?.txt":        "abcde.txt",
		"tab\there":              "tab-here",
	} {
		if got := SanitizeName(in); got != want {
			t.Errorf("SanitizeName(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestValidPathIDRefusesTraversal(t *testing.T) {
	for _, p := range []string{
		"", "2", "2/ab/tok", "2/ab/tok/name/extra", "x/ab/tok/name", "2/../tok/name", "2/ab/../name",
		"2/ab/tok/..", "2/ab/tok/.", "/2/ab/tok/name", "2//tok/name", "2/ab/tok/na\\me", "2/ab/tok/na%2fme",
		"2/ab/tok/name\x00", "-1/ab/tok/name",
	} {
		if ValidPathID(p) {
			t.Errorf("ValidPathID(%q) = true", p)
		}
	}
	if !ValidPathID("2/ce/2Xpnnwgh8JWKxBXtTfD6BHKV/zulip.txt") {
		t.Error("Zulip's example path_id refused")
	}
}

func TestLinkedPathIDs(t *testing.T) {
	a, b := "2/ce/2Xpnnwgh8JWKxBXtTfD6BHKV/zulip.txt", "2/1/AAAAAAAAAAAAAAAAAAAAAAAA/café.png"
	content := "see [zulip.txt](/user_uploads/" + a + ") and http://localhost:9991/user_uploads/" + a +
		" and <https://x/user_uploads/2/1/AAAAAAAAAAAAAAAAAAAAAAAA/caf%C3%A9.png> not /user_uploads/2/../x/y nor /user_uploads/"
	got := LinkedPathIDs(content)
	if len(got) != 2 || got[0] != a || got[1] != b {
		t.Fatalf("LinkedPathIDs = %q", got)
	}
	if LinkedPathIDs("no links here") != nil {
		t.Fatal("links found in plain text")
	}
}

func TestDisplayNameAndContentType(t *testing.T) {
	if got := DisplayName("my%20file.txt"); got != "my file.txt" {
		t.Fatalf("DisplayName = %q", got)
	}
	if got := DisplayName(`C:\Users\x\report.pdf`); got != "report.pdf" {
		t.Fatalf("DisplayName keeps directories: %q", got)
	}
	if got := DisplayName("100%.txt"); got != "100%.txt" {
		t.Fatalf("a bad escape must be kept: %q", got)
	}
	for _, c := range []struct{ declared, name, want string }{
		{"text/plain; charset=utf-8", "x.bin", "text/plain; charset=utf-8"},
		{"", "photo.PNG", "image/png"},
		{"application/octet-stream", "photo.jpg", "image/jpeg"},
		{"application/octet-stream", "noext", "application/octet-stream"},
		{"", "noext", "application/octet-stream"},
		{"not a type", "a.pdf", "application/pdf"},
	} {
		if got := ContentType(c.declared, c.name); got != c.want {
			t.Errorf("ContentType(%q, %q) = %q, want %q", c.declared, c.name, got, c.want)
		}
	}
}

func TestDisposition(t *testing.T) {
	if got := Disposition("image/png", "a.png", false); got != "inline; filename=a.png" {
		t.Fatalf("png: %q", got)
	}
	if got := Disposition("image/png", "a.png", true); got != "attachment; filename=a.png" {
		t.Fatalf("download: %q", got)
	}
	if got := Disposition("text/html", "x.html", false); got != "attachment; filename=x.html" {
		t.Fatalf("html must download: %q", got)
	}
	if got := Disposition("image/svg+xml", "x.svg", false); !strings.HasPrefix(got, "attachment") {
		t.Fatalf("svg must download: %q", got)
	}
	if got := Disposition("application/pdf", "rapport été.pdf", false); got != "inline; filename*=utf-8''rapport%20%C3%A9t%C3%A9.pdf" {
		t.Fatalf("non-ASCII name: %q", got)
	}
}

func TestMayRead(t *testing.T) {
	const owner = 10
	member, guest, visitor := Reader{UserID: 11}, Reader{UserID: 12, Guest: true}, Reader{}
	private := []Reference{}
	public := []Reference{{PublicChannel: true}}
	webPublic := []Reference{{PublicChannel: true, WebPublicChannel: true}}
	received := []Reference{{ReaderHasCopy: true}}
	shared := []Reference{{ReaderSubscribedSharedHistory: true}}
	for _, c := range []struct {
		name   string
		reader Reader
		refs   []Reference
		want   bool
	}{
		{"owner, unlinked", Reader{UserID: owner}, private, true},
		{"member, unlinked", member, private, false},
		{"member, public channel", member, public, true},
		{"guest, public channel", guest, public, false},
		{"guest, received", guest, received, true},
		{"member, shared history", member, shared, true},
		{"visitor, public", visitor, public, false},
		{"visitor, web-public", visitor, webPublic, true},
		{"member, unrelated private ref", member, []Reference{{}}, false},
	} {
		if got := MayRead(owner, c.reader, c.refs); got != c.want {
			t.Errorf("%s: MayRead = %v, want %v", c.name, got, c.want)
		}
	}
}
