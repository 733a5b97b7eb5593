// Package upload holds the rules of uploaded files, apart from any realm
// or HTTP: where their bytes are kept (Store, with an in-memory and a
// directory-backed implementation), how a path_id is made and checked,
// how names are sanitized, which content type a file is served with and
// whether inline, how message content links files, and who may read one.
package upload
