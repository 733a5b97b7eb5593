package user

import (
	"strings"
	"testing"
)

func TestCheckPushToken(t *testing.T) {
	hex64 := strings.Repeat("0123456789abcdef", 4)
	for _, c := range []struct {
		kind  PushKind
		token string
		want  string // "" accepted
	}{
		{PushFCM, "android-token", ""},
		{PushFCM, "", "Empty or invalid length token"},
		{PushAPNs, "", "Empty or invalid length token"},
		{PushFCM, strings.Repeat("a", MaxPushTokenLength), ""},
		{PushFCM, strings.Repeat("a", MaxPushTokenLength+1), "Empty or invalid length token"},
		{PushAPNs, strings.Repeat("a", MaxPushTokenLength+2), "Empty or invalid length token"},
		// characters, not bytes, are counted
		{PushFCM, strings.Repeat("é", MaxPushTokenLength), ""},
		{PushAPNs, hex64, ""},
		{PushAPNs, strings.ToUpper(hex64), ""},
		{PushAPNs, "c0ffee", ""},
		{PushAPNs, "c0 ff\tee\n", ""},
		{PushAPNs, " c0ffee", ""},
		{PushAPNs, "c0ffe", "Invalid APNS token"},
		{PushAPNs, "c 0ffee", "Invalid APNS token"},
		{PushAPNs, "xyz uses non-hex characters", "Invalid APNS token"},
		{PushAPNs, "android-token", "Invalid APNS token"},
		{PushAPNs, "c0ffeé", "Invalid APNS token"},
		// only PushAPNs tokens must be hex
		{PushFCM, "c0ffe", ""},
	} {
		err := CheckPushToken(c.kind, c.token)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != c.want {
			t.Errorf("CheckPushToken(%s, %.20q) = %q, want %q", c.kind, c.token, got, c.want)
		}
	}
}

func TestValidAppID(t *testing.T) {
	for id, want := range map[string]bool{
		"org.zulip.Zulip": true, "com-example.App9": true, ".": true,
		"": false, "'; tables --": false, "org.zulip.Zulip\n": false, "org zulip": false, "org_zulip": false,
	} {
		if got := ValidPushAppID(id); got != want {
			t.Errorf("ValidPushAppID(%q) = %v, want %v", id, got, want)
		}
	}
}
