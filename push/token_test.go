package push

import (
	"strings"
	"testing"
)

func TestCheckToken(t *testing.T) {
	hex64 := strings.Repeat("0123456789abcdef", 4)
	for _, c := range []struct {
		kind  Kind
		token string
		want  string // "" accepted
	}{
		{FCM, "android-token", ""},
		{FCM, "", "Empty or invalid length token"},
		{APNs, "", "Empty or invalid length token"},
		{FCM, strings.Repeat("a", MaxTokenLength), ""},
		{FCM, strings.Repeat("a", MaxTokenLength+1), "Empty or invalid length token"},
		{APNs, strings.Repeat("a", MaxTokenLength+2), "Empty or invalid length token"},
		// characters, not bytes, are counted
		{FCM, strings.Repeat("é", MaxTokenLength), ""},
		{APNs, hex64, ""},
		{APNs, strings.ToUpper(hex64), ""},
		{APNs, "c0ffee", ""},
		{APNs, "c0 ff\tee\n", ""},
		{APNs, " c0ffee", ""},
		{APNs, "c0ffe", "Invalid APNS token"},
		{APNs, "c 0ffee", "Invalid APNS token"},
		{APNs, "xyz uses non-hex characters", "Invalid APNS token"},
		{APNs, "android-token", "Invalid APNS token"},
		{APNs, "c0ffeé", "Invalid APNS token"},
		// only APNs tokens must be hex
		{FCM, "c0ffe", ""},
	} {
		err := CheckToken(c.kind, c.token)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("CheckToken(%s, %.20q) = %q, want %q", c.kind, c.token, got, c.want)
		}
	}
}

func TestValidAppID(t *testing.T) {
	for id, want := range map[string]bool{
		"org.zulip.Zulip": true, "com-example.App9": true, ".": true,
		"": false, "'; tables --": false, "org.zulip.Zulip\n": false, "org zulip": false, "org_zulip": false,
	} {
		if got := ValidAppID(id); got != want {
			t.Errorf("ValidAppID(%q) = %v, want %v", id, got, want)
		}
	}
}
