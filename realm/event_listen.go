package realm

import (
	"context"
	"errors"
	"iter"
)

// Listener receives a user's events in-process, through the same queues
// that serve GET /events. Close it when done.
type Listener struct {
	actor  *Actor
	queue  string
	last   int
	closed bool
	// State is what POST /register would have returned with the queue.
	State RegisterResult
}

// Listen opens an event queue for the actor and returns a Listener reading
// it, with the initial state of the requested sections.
func (a *Actor) Listen(ctx context.Context, req RegisterRequest) (*Listener, error) {
	state, err := a.Register(ctx, req)
	if err != nil {
		return nil, err
	}
	return &Listener{actor: a, queue: state.QueueID, last: -1, State: state}, nil
}

// QueueID is the ID of the listener's queue.
func (l *Listener) QueueID() string { return l.queue }

// Next waits for events (or a heartbeat) and returns them; each call
// acknowledges the events the previous call returned.
func (l *Listener) Next(ctx context.Context) ([]Event, error) {
	evs, err := l.actor.Events(ctx, GetEventsRequest{QueueID: l.queue, LastEventID: l.last})
	if err != nil {
		return nil, err
	}
	if len(evs) > 0 {
		l.last = evs[len(evs)-1].ID
	}
	return evs, nil
}

// Events iterates over events as they come, skipping heartbeats, until ctx
// is done or the queue is gone (then the error is yielded once).
func (l *Listener) Events(ctx context.Context) iter.Seq2[Event, error] {
	return func(yield func(Event, error) bool) {
		for ctx.Err() == nil {
			evs, err := l.Next(ctx)
			if err != nil {
				yield(Event{}, err)
				return
			}
			for _, ev := range evs {
				if ev.Type == "heartbeat" {
					continue
				}
				if !yield(ev, nil) {
					return
				}
			}
		}
	}
}

// Close deletes the queue. Closing twice is harmless.
func (l *Listener) Close() error {
	if l.closed {
		return nil
	}
	l.closed = true
	err := l.actor.DeleteQueue(context.Background(), l.queue)
	if errors.Is(err, &Error{Code: CodeBadEventQueueID}) {
		return nil
	}
	return err
}
