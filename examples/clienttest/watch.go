package clienttest

import (
	"errors"
	"fmt"
	"net/url"
)

// Watcher follows message events through an event queue, registering a
// new queue when the server has dropped its old one, as every Zulip client
// must (it matches the error's code, BAD_EVENT_QUEUE_ID, not its msg).
type Watcher struct {
	c       *Client
	queueID string
	lastID  int
	// Registrations counts the queues registered, the first included.
	Registrations int
}

// Watch registers a queue for message events.
func (c *Client) Watch() (*Watcher, error) {
	w := &Watcher{c: c}
	return w, w.register()
}

func (w *Watcher) register() error {
	var out struct {
		QueueID     string `json:"queue_id"`
		LastEventID int    `json:"last_event_id"`
	}
	if err := w.c.call("POST", "/register", url.Values{"event_types": {`["message"]`}, "apply_markdown": {"true"}}, &out); err != nil {
		return err
	}
	w.queueID, w.lastID = out.QueueID, out.LastEventID
	w.Registrations++
	return nil
}

// QueueID is the queue the watcher polls.
func (w *Watcher) QueueID() string { return w.queueID }

// Next polls the queue once and returns the messages that came. When the
// queue is gone it registers a new one and returns no messages: a real
// client would fetch the state it missed there.
func (w *Watcher) Next() ([]Message, error) {
	var out struct {
		Events []struct {
			ID      int     `json:"id"`
			Type    string  `json:"type"`
			Message Message `json:"message"`
		} `json:"events"`
	}
	err := w.c.call("GET", "/events", url.Values{"queue_id": {w.queueID}, "last_event_id": {fmt.Sprint(w.lastID)}}, &out)
	var apiErr *apiError
	if errors.As(err, &apiErr) && apiErr.Code == "BAD_EVENT_QUEUE_ID" {
		return nil, w.register()
	}
	if err != nil {
		return nil, err
	}
	var msgs []Message
	for _, ev := range out.Events {
		w.lastID = ev.ID
		if ev.Type == "message" {
			msgs = append(msgs, ev.Message)
		}
	}
	return msgs, nil
}
