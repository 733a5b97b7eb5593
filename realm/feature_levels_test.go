package realm

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"
)

// The register answer and user objects carry what the advertised feature
// level carries: fields Zulip removed are gone from that level on, renamed
// ones change name at theirs.
func TestShapeFollowsFeatureLevel(t *testing.T) {
	type check struct {
		key     string
		present bool
	}
	for _, c := range []struct {
		level  int
		checks []check
	}{
		{218, []check{{"is_billing_admin", true}, {"realm_notifications_stream_id", true}, {"realm_signup_notifications_stream_id", true},
			{"realm_new_stream_announcements_stream_id", false}, {"realm_zulip_update_announcements_stream_id", false},
			{"realm_url", false}, {"realm_uri", true}, {"user_settings.dense_mode", true}, {"realm_users.0.is_imported_stub", false}}},
		{241, []check{{"is_billing_admin", true}, {"realm_notifications_stream_id", false}, {"realm_new_stream_announcements_stream_id", true},
			{"realm_signup_announcements_stream_id", true}, {"realm_zulip_update_announcements_stream_id", false}, {"realm_url", false}}},
		{363, []check{{"is_billing_admin", false}, {"realm_zulip_update_announcements_stream_id", true}, {"realm_url", true},
			{"user_settings.dense_mode", true}}},
		{432, []check{{"realm_users.0.is_imported_stub", false}, {"cross_realm_bots.0.is_imported_stub", false}}},
		{433, []check{{"realm_users.0.is_imported_stub", true}, {"cross_realm_bots.0.is_imported_stub", true}}},
		{DefaultFeatureLevel, []check{{"is_billing_admin", false}, {"realm_notifications_stream_id", false},
			{"realm_signup_notifications_stream_id", false}, {"realm_new_stream_announcements_stream_id", true},
			{"demo_organization_scheduled_deletion_date", false}, {"user_settings.dense_mode", false}, {"realm_users.0.is_billing_admin", false}}},
	} {
		r, _ := newTestRealm(t, WithFeatureLevel(c.level, "test"))
		state, err := r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"realm", "realm_user", "user_settings"}})
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := json.Marshal(state)
		var m map[string]any
		_ = json.Unmarshal(raw, &m)
		has := func(path string) bool {
			var cur any = m
			for _, part := range splitPath(path) {
				switch v := cur.(type) {
				case map[string]any:
					var ok bool
					if cur, ok = v[part]; !ok {
						return false
					}
				case []any:
					if len(v) == 0 {
						return false
					}
					cur = v[0]
				default:
					return false
				}
			}
			return true
		}
		for _, ch := range c.checks {
			if has(ch.key) != ch.present {
				t.Errorf("feature level %d: %s present=%v, want %v", c.level, ch.key, !ch.present, ch.present)
			}
		}
		own, _ := r.As(idHamlet).OwnUser(bg)
		if (own.IsBillingAdmin != nil) != (c.level < changeBillingAdminRemoved.level) {
			t.Errorf("feature level %d: GET /users/me is_billing_admin %v", c.level, own.IsBillingAdmin)
		}
		// is_imported_stub came at 433: a Zulip 7.0 server, which
		// zulip-terminal supports, never sent it.
		if (own.IsImportedStub != nil) != (c.level >= changeImportedStubField.level) {
			t.Errorf("feature level %d: GET /users/me is_imported_stub %v", c.level, own.IsImportedStub)
		}
	}
}

func splitPath(p string) []string {
	var out []string
	start := 0
	for i := 0; i <= len(p); i++ {
		if i == len(p) || p[i] == '.' {
			out = append(out, p[start:i])
			start = i + 1
		}
	}
	return out
}

// Personal settings use Zulip's current defaults.
func TestUserSettingsDefaults(t *testing.T) {
	r, _ := newTestRealm(t)
	state, _ := r.As(idHamlet).Register(bg, RegisterRequest{FetchEventTypes: []string{"user_settings"}})
	if state.UserSettings.WebHomeView != "inbox" {
		t.Fatalf("web_home_view %q, want Zulip's default inbox", state.UserSettings.WebHomeView)
	}
}

// Subscription results follow the advertised level: keyed by API email
// below 289, by user ID from it; new_subscription_messages_sent from 397.
func TestSubscribeResultFollowsFeatureLevel(t *testing.T) {
	for _, c := range []struct {
		level       int
		key         string
		sentPresent bool
	}{
		{218, "user11@zulipdev.com", false},
		{changeSubscribersKeyedByID.level - 1, "user11@zulipdev.com", false},
		{changeSubscribersKeyedByID.level, "11", false},
		{changeNewSubscriptionMessages.level, "11", true},
		{DefaultFeatureLevel, "11", true},
	} {
		r, _ := newTestRealm(t, WithFeatureLevel(c.level, "test"))
		res, err := r.As(idIago).Subscribe(bg, SubscribeRequest{Channels: []ChannelSpec{{Name: "Rome"}}})
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Subscribed[c.key]) != 1 || len(res.Subscribed) != 1 {
			t.Errorf("feature level %d: subscribed %v, want key %q", c.level, res.Subscribed, c.key)
		}
		if (res.NewSubscriptionMessagesSent != nil) != c.sentPresent {
			t.Errorf("feature level %d: new_subscription_messages_sent %v", c.level, res.NewSubscriptionMessagesSent)
		}
	}
}

// The changes code asks about are named in one place, feature_levels.go,
// from the table of changes, and code asks the table (has) rather than
// comparing the realm's feature level in place: the only comparisons are
// inside the has methods.
func TestFeatureLevelsLiveInOneFile(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		t.Fatal(err)
	}
	files := pkgs["realm"].Files
	if files["feature_levels.go"] == nil {
		t.Fatal("no feature_levels.go")
	}
	for path, f := range files {
		file := filepath.Base(path)
		if file != "feature_levels.go" {
			for _, d := range f.Decls {
				for _, name := range constNames(d) {
					// DefaultFeatureLevel is the level advertised when
					// none is asked for, an option's default.
					if isLevelName(name) && name != "DefaultFeatureLevel" {
						t.Errorf("%s: feature level %s is declared outside feature_levels.go", file, name)
					}
				}
			}
		}
		for _, d := range f.Decls {
			if fn, ok := d.(*ast.FuncDecl); ok && (fn.Name.Name == "has" || fn.Name.Name == "newChange" || fn.Name.Name == "VersionForLevel") {
				continue
			}
			ast.Inspect(d, func(n ast.Node) bool {
				if other, ok := levelComparison(n); ok {
					t.Errorf("%s: the feature level is compared with %s in place; ask the table (r.has)",
						fset.Position(other.Pos()), exprString(other))
				}
				return true
			})
		}
	}
}

// constNames are the names d declares if it is a const declaration.
func constNames(d ast.Decl) []string {
	g, ok := d.(*ast.GenDecl)
	if !ok || g.Tok != token.CONST {
		return nil
	}
	var names []string
	for _, s := range g.Specs {
		for _, id := range s.(*ast.ValueSpec).Names {
			names = append(names, id.Name)
		}
	}
	return names
}

// isLevelName reports whether a constant's name says it is a feature
// level.
func isLevelName(name string) bool {
	return strings.HasSuffix(name, "Level") || strings.HasSuffix(name, "Lvl")
}

// levelComparison returns the other operand of n when n compares the
// feature level (r.opts.FeatureLevel, FeatureLevel(), a viewEnv's
// featureLevel, a local level or lvl) with something.
func levelComparison(n ast.Node) (ast.Expr, bool) {
	b, ok := n.(*ast.BinaryExpr)
	if !ok {
		return nil, false
	}
	switch b.Op {
	case token.LSS, token.LEQ, token.GTR, token.GEQ, token.EQL, token.NEQ:
	default:
		return nil, false
	}
	switch {
	case isLevelExpr(b.X):
		return b.Y, true
	case isLevelExpr(b.Y):
		return b.X, true
	}
	return nil, false
}

// isLevelExpr reports whether e reads the feature level.
func isLevelExpr(e ast.Expr) bool {
	if c, ok := e.(*ast.CallExpr); ok {
		e = c.Fun
	}
	var name string
	switch e := e.(type) {
	case *ast.Ident:
		name = e.Name
	case *ast.SelectorExpr:
		name = e.Sel.Name
	}
	switch strings.ToLower(name) {
	case "featurelevel", "level", "lvl":
		return true
	}
	return false
}

// exprString is e as written, for messages.
func exprString(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.BasicLit:
		return e.Value
	case *ast.SelectorExpr:
		return exprString(e.X) + "." + e.Sel.Name
	}
	return "an expression"
}
