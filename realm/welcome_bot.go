package realm

import (
	"context"
	"unicode/utf8"

	"github.com/minizulip/minizulip/user"
)

// welcomeBotEmail is the Welcome Bot's address in every realm.
const welcomeBotEmail = "welcome-bot@zulip.com"

// MaxWelcomeMessageCustomTextLength is Zulip's limit on a Welcome Bot
// custom message (an invitation's or a preview's), in characters.
const MaxWelcomeMessageCustomTextLength = 8000

// TestWelcomeBotCustomMessage answers POST
// /realm/test_welcome_bot_custom_message (administrators): the Welcome
// Bot sends the acting user a direct message with the custom text, as new
// users would receive it, and its ID is returned.
func (a *Actor) TestWelcomeBotCustomMessage(ctx context.Context, text string) (id int64, err error) {
	r := a.r
	err = a.writeAdmin(ctx, func(me *user.User) error {
		if utf8.RuneCountInString(text) > MaxWelcomeMessageCustomTextLength {
			return BadRequest("welcome_message_custom_text is too long (limit: %d characters)", MaxWelcomeMessageCustomTextLength)
		}
		if text == "" {
			return BadRequest("Message must not be empty")
		}
		if err := noNull("welcome_message_custom_text", text); err != nil {
			return err
		}
		if id = r.sendDirectFrom(welcomeBotEmail, me, text); id == 0 {
			return BadRequest("Message must not be empty")
		}
		return nil
	})
	return id, err
}
