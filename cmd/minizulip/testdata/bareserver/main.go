// Command bareserver is the baseline of BenchmarkStartup: a bare net/http
// server that answers every request with an empty JSON object.
package main

import (
	"flag"
	"fmt"
	"net/http"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:9991", "listen address")
	flag.Parse()
	fmt.Println("listening on", *addr)
	http.ListenAndServe(*addr, http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Write([]byte("{}"))
	}))
}
