// Command bareserver is the baseline of minizulip's performance figures:
// a bare net/http server. POST /api/v1/messages does what any send must
// (parse the form, check Basic credentials, answer JSON with a new id) and
// nothing else; POST /api/v1/dev_fetch_api_key hands out the one key, as
// minizulip's dev login does; every other request gets an empty JSON
// object. BenchmarkStartup times its start, cmd/minizulip-load its sends.
package main

import (
	"flag"
	"fmt"
	"net/http"
	"sync/atomic"
)

// email and key are the one account's credentials.
const (
	email = "iago@zulip.com"
	key   = "abcdefghijklmnopqrstuvwxyz012345"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:9991", "listen address")
	flag.Parse()
	fmt.Println("listening on", *addr)
	var next atomic.Int64
	mux := http.NewServeMux()
	mux.HandleFunc("POST /api/v1/messages", func(w http.ResponseWriter, r *http.Request) {
		if err := r.ParseForm(); err != nil {
			http.Error(w, "bad form", http.StatusBadRequest)
			return
		}
		e, k, ok := r.BasicAuth()
		if !ok || e != email || k != key || r.PostForm.Get("content") == "" {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, "{\"result\":\"success\",\"msg\":\"\",\"id\":%d}\n", next.Add(1))
	})
	mux.HandleFunc("POST /api/v1/dev_fetch_api_key", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, "{\"result\":\"success\",\"msg\":\"\",\"api_key\":%q,\"email\":%q}\n", key, email)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte("{}"))
	})
	http.ListenAndServe(*addr, mux)
}
