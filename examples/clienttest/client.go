// Package clienttest shows how a Go Zulip client is tested against
// minizulip: client.go is a tiny client, client_test.go its test suite
// running against httpapi.RunT.
package clienttest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// Client is a minimal Zulip API client.
type Client struct {
	BaseURL, Email, APIKey string
	HTTP                   *http.Client
}

// apiError is Zulip's error envelope.
type apiError struct {
	Code string `json:"code"`
	Msg  string `json:"msg"`
}

func (e *apiError) Error() string { return e.Code + ": " + e.Msg }

// call sends a form request and decodes the JSON answer into out.
func (c *Client) call(method, path string, form url.Values, out any) error {
	target := c.BaseURL + "/api/v1" + path
	var body *strings.Reader
	if method == http.MethodGet {
		target += "?" + form.Encode()
		body = strings.NewReader("")
	} else {
		body = strings.NewReader(form.Encode())
	}
	req, err := http.NewRequest(method, target, body)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	req.SetBasicAuth(c.Email, c.APIKey)
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		var e apiError
		if err := json.NewDecoder(resp.Body).Decode(&e); err != nil {
			return fmt.Errorf("HTTP %d", resp.StatusCode)
		}
		return &e
	}
	return json.NewDecoder(resp.Body).Decode(out)
}

// Send posts a channel message and returns its ID.
func (c *Client) Send(channel, topic, content string) (int64, error) {
	var out struct {
		ID int64 `json:"id"`
	}
	err := c.call("POST", "/messages", url.Values{"type": {"stream"}, "to": {channel}, "topic": {topic}, "content": {content}}, &out)
	return out.ID, err
}

// Message is the part of a message this client reads.
type Message struct {
	ID      int64  `json:"id"`
	Content string `json:"content"`
	Sender  string `json:"sender_full_name"`
}

// Newest returns the newest messages of a topic.
func (c *Client) Newest(channel, topic string, n int) ([]Message, error) {
	narrow, _ := json.Marshal([]map[string]string{{"operator": "channel", "operand": channel}, {"operator": "topic", "operand": topic}})
	var out struct {
		Messages []Message `json:"messages"`
	}
	err := c.call("GET", "/messages", url.Values{"anchor": {"newest"}, "num_before": {fmt.Sprint(n)}, "num_after": {"0"}, "narrow": {string(narrow)}}, &out)
	return out.Messages, err
}
