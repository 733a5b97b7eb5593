package httpapi

import "github.com/minizulip/minizulip/realm"

func callRoutes() []route {
	return []route{
		{method: "POST", path: "/calls/zoom/create", h: createZoomCall},
		{method: "GET", path: "/calls/bigbluebutton/create", h: createBigBlueButtonCall},
		{method: "POST", path: "/calls/constructorgroups/create", h: createCall(realm.CallConstructorGroups)},
		{method: "POST", path: "/calls/nextcloud_talk/create", h: createCall(realm.CallNextcloudTalk)},
	}
}

// callURL is the answer of every call endpoint.
type callURL struct {
	URL string `json:"url"`
}

func createZoomCall(c *call) (any, error) {
	video, err := c.p.optBool("is_video_call", true)
	if err != nil {
		return nil, err
	}
	url, err := c.actor.CreateCall(c.ctx(), realm.CallZoom, realm.CallRequest{VideoCall: video})
	if err != nil {
		return nil, err
	}
	return callURL{URL: url}, nil
}

func createBigBlueButtonCall(c *call) (any, error) {
	name, err := c.p.mustStr("meeting_name")
	if err != nil {
		return nil, err
	}
	voiceOnly, err := c.p.optBool("voice_only", false)
	if err != nil {
		return nil, err
	}
	url, err := c.actor.CreateCall(c.ctx(), realm.CallBigBlueButton,
		realm.CallRequest{VideoCall: !voiceOnly, MeetingName: name, VoiceOnly: voiceOnly})
	if err != nil {
		return nil, err
	}
	return callURL{URL: url}, nil
}

// createCall serves a provider's endpoint that takes no parameters.
func createCall(provider string) func(c *call) (any, error) {
	return func(c *call) (any, error) {
		url, err := c.actor.CreateCall(c.ctx(), provider, realm.CallRequest{VideoCall: true})
		if err != nil {
			return nil, err
		}
		return callURL{URL: url}, nil
	}
}
