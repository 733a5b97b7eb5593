package httpapi

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"time"

	"github.com/minizulip/minizulip/realm"
)

// serviceCaller is the realm's outgoing-webhook caller over net/http.
type serviceCaller struct{ client *http.Client }

// NewServiceCaller posts a realm's outgoing-webhook calls through c; nil
// means a client with Zulip's 10-second timeout. Give it to
// realm.WithOutgoingWebhookCaller.
func NewServiceCaller(c *http.Client) realm.ServiceCaller {
	if c == nil {
		c = &http.Client{Timeout: realm.OutgoingWebhookTimeout}
	}
	return serviceCaller{client: c}
}

// PostToService posts body and reads the whole answer; the client's
// errors (*url.Error, with its Timeout method) are returned as they are.
func (s serviceCaller) PostToService(ctx context.Context, serviceURL, contentType, userAgent string, body []byte) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, serviceURL, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("User-Agent", userAgent)
	resp, err := s.client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	answer, err := io.ReadAll(resp.Body)
	if err != nil {
		return 0, nil, err
	}
	return resp.StatusCode, answer, nil
}

// Timeout is the client's timeout (Zulip's 10 seconds when it has none).
func (s serviceCaller) Timeout() time.Duration {
	if s.client.Timeout > 0 {
		return s.client.Timeout
	}
	return realm.OutgoingWebhookTimeout
}
