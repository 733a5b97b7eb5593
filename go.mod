module github.com/minizulip/minizulip

go 1.26.8

require (
	github.com/google/btree v1.1.3
	github.com/yuin/goldmark v1.8.7
)
