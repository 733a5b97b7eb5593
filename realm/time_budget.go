package realm

import "context"

// Zulip stops a batched request (POST /mark_all_as_read, POST
// /streams/{id}/delete_topic) when its time budget runs out, and the
// client repeats it. The fake's batches never take that long: a test
// makes a request stop after its first batch with FirstBatchOnly (the
// control API's "timeout" fault). A context that ends between batches
// stops the request there too.

// firstBatchOnlyKey marks a context FirstBatchOnly made.
type firstBatchOnlyKey struct{}

// FirstBatchOnly returns a context under which a batched request stops
// after its first batch, as when Zulip's time budget runs out, and
// answers that it is not complete.
func FirstBatchOnly(ctx context.Context) context.Context {
	return context.WithValue(ctx, firstBatchOnlyKey{}, true)
}

// batchLimit is how many batches a request under ctx may run (0: all).
func batchLimit(ctx context.Context) int {
	if ctx.Value(firstBatchOnlyKey{}) != nil {
		return 1
	}
	return 0
}

// stopBefore reports whether a batched request under ctx, done batches
// in, stops before its next batch: its limit is reached, or ctx ended
// (the first batch always runs, as in Zulip).
func stopBefore(ctx context.Context, done, limit int) bool {
	return done > 0 && ((limit > 0 && done >= limit) || ctx.Err() != nil)
}
