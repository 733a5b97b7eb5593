// Package webui is minizulip's web pages: a small Zulip web client of the
// realm, served at "/", and the inspector of the fake's own state, served
// at /minizulip/ to browsers. Both are static pages (html/template, plain
// JavaScript modules and CSS, no build step) that speak the server's own
// HTTP API from the browser: the client the /json session API, the
// inspector the /minizulip/ control API. The package holds no state and
// no rule of the realm; httpapi mounts it (httpapi.WithWebUI).
package webui

import (
	"embed"
	"html/template"
	"io/fs"
	"net/http"
	"strings"
)

// AssetPrefix is the path prefix of the pages' scripts and styles.
const AssetPrefix = "/static/webui/"

//go:embed static templates
var files embed.FS

var (
	templates = template.Must(template.ParseFS(files, "templates/*.html"))
	static, _ = fs.Sub(files, "static")
	assets    = http.StripPrefix(AssetPrefix, http.FileServerFS(static))
)

// LoginUser is one button of the dev login page.
type LoginUser struct {
	Email, FullName string
}

// Config tells the client page how users log in.
type Config struct {
	// LoginUsers lists the users the dev login page offers, one button
	// each; ok is false when dev login is off, and the page asks for an
	// email and a password instead.
	LoginUsers func() (users []LoginUser, ok bool)
}

// Handler serves the client page at "/" and the pages' assets below
// AssetPrefix; it answers 404 to any other path.
func Handler(c Config) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		switch {
		case strings.HasPrefix(req.URL.Path, AssetPrefix):
			w.Header().Set("Cache-Control", "no-cache")
			assets.ServeHTTP(w, req)
		case req.URL.Path == "/":
			var data struct {
				DevLogin bool
				Users    []LoginUser
			}
			if c.LoginUsers != nil {
				data.Users, data.DevLogin = c.LoginUsers()
			}
			render(w, req, "index.html", data)
		default:
			http.NotFound(w, req)
		}
	})
}

// Inspector serves the inspector page (for GET /minizulip/ from a browser).
func Inspector() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		render(w, req, "inspector.html", nil)
	})
}

// Owns reports whether path is one of the pages' own: "/" or an asset.
func Owns(path string) bool { return path == "/" || strings.HasPrefix(path, AssetPrefix) }

func render(w http.ResponseWriter, req *http.Request, name string, data any) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	// Scripts only from the server itself: message HTML, the one kind of
	// server text the client inserts as HTML, cannot run script.
	h.Set("Content-Security-Policy", "default-src 'self'; img-src 'self' data: blob: *; style-src 'self' 'unsafe-inline'; frame-ancestors 'none'")
	h.Set("X-Content-Type-Options", "nosniff")
	if req.Method == http.MethodHead {
		return
	}
	if err := templates.ExecuteTemplate(w, name, data); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
	}
}
