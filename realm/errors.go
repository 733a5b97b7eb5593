package realm

import (
	"fmt"
)

// Code is an API error code as Zulip sends it in the `code` field.
type Code string

// The error codes the realm returns. Each maps to one HTTP status by default.
const (
	CodeBadRequest                    Code = "BAD_REQUEST"
	CodeRequestVariableMissing        Code = "REQUEST_VARIABLE_MISSING"
	CodeRequestVariableInvalid        Code = "REQUEST_VARIABLE_INVALID"
	CodeUnauthorized                  Code = "UNAUTHORIZED"
	CodeUserDeactivated               Code = "USER_DEACTIVATED"
	CodePasswordAuthDisabled          Code = "PASSWORD_AUTH_DISABLED"
	CodeAuthenticationFailed          Code = "AUTHENTICATION_FAILED"
	CodeStreamDoesNotExist            Code = "STREAM_DOES_NOT_EXIST"
	CodeUnauthorizedPrincipal         Code = "UNAUTHORIZED_PRINCIPAL"
	CodeBadNarrow                     Code = "BAD_NARROW"
	CodeBadEventQueueID               Code = "BAD_EVENT_QUEUE_ID"
	CodeStreamWildcardMentionNotAllow Code = "STREAM_WILDCARD_MENTION_NOT_ALLOWED"
	CodeTopicWildcardMentionNotAllow  Code = "TOPIC_WILDCARD_MENTION_NOT_ALLOWED"
	CodeCannotDeactivateGroupInUse    Code = "CANNOT_DEACTIVATE_GROUP_IN_USE"
	CodeCSRFFailed                    Code = "CSRF_FAILED"
	CodeCannotDeactivateLastUser      Code = "CANNOT_DEACTIVATE_LAST_USER"
	// CodeMoveMessagesTimeLimitExceeded refuses a change_all move of a
	// topic holding messages older than the move time limits.
	CodeMoveMessagesTimeLimitExceeded Code = "MOVE_MESSAGES_TIME_LIMIT_EXCEEDED"
	// CodeExpectationMismatch is a group-setting change whose `old` value
	// is not the setting's current value.
	CodeExpectationMismatch Code = "EXPECTATION_MISMATCH"
	// CodeNonexistentSubdomain is a login aimed at another realm (here:
	// the system bots' realm).
	CodeNonexistentSubdomain Code = "NONEXISTENT_SUBDOMAIN"
	// CodeReactionAlreadyExists is adding a reaction the caller already
	// has on the message (feature level 193; BAD_REQUEST before).
	CodeReactionAlreadyExists Code = "REACTION_ALREADY_EXISTS"
	// CodeReactionDoesNotExist is removing a reaction the caller does not
	// have (feature level 193; BAD_REQUEST before).
	CodeReactionDoesNotExist Code = "REACTION_DOES_NOT_EXIST"
	// CodeBadImage is an uploaded image that cannot be decoded.
	CodeBadImage Code = "BAD_IMAGE"
	// CodeInvalidZoomToken is a call whose provider needs the user's
	// OAuth token, which the user does not have (or which expired).
	CodeInvalidZoomToken Code = "INVALID_ZOOM_TOKEN"
	// CodeInvalidAPIKey is a bad legacy ?api_key= credential on a file URL.
	CodeInvalidAPIKey Code = "INVALID_API_KEY"
	// CodeChannelAlreadyExists refuses to create a channel whose name is
	// taken (POST /channels/create, HTTP 409).
	CodeChannelAlreadyExists Code = "CHANNEL_ALREADY_EXISTS"
	// CodeRealmUploadQuota refuses an upload that the realm has no room
	// for (here: the memory upload store's limit).
	CodeRealmUploadQuota Code = "REALM_UPLOAD_QUOTA"
)

// The HTTP statuses the realm's errors carry. The engine speaks no HTTP;
// it only says which status Zulip sends each error with, and httpapi sends it.
const (
	statusBadRequest   = 400
	statusUnauthorized = 401
	statusForbidden    = 403
	statusNotFound     = 404
	// The statuses of the resumable-upload (tus) protocol's refusals.
	statusConflict        = 409
	statusContentTooLarge = 413
	statusLocked          = 423
	// statusTooManyRequests refuses one more unfinished resumable upload.
	statusTooManyRequests = 429
)

// Error is an API error: a code, a human message, the HTTP status it is sent
// with, and the extra top-level fields some codes carry. httpapi only
// encodes it.
type Error struct {
	Code   Code
	Msg    string
	Status int
	// Extra holds fields sent next to `code`, e.g. `stream` or `var_name`.
	Extra map[string]any
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Msg }

// Is makes errors.Is match any *Error with the same code, so callers can
// write errors.Is(err, realm.ErrStreamDoesNotExist).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Sentinels for errors.Is; their messages are not meaningful.
var (
	ErrBadRequest             = &Error{Code: CodeBadRequest}
	ErrUnauthorized           = &Error{Code: CodeUnauthorized}
	ErrStreamDoesNotExist     = &Error{Code: CodeStreamDoesNotExist}
	ErrUnauthorizedPrincipal  = &Error{Code: CodeUnauthorizedPrincipal}
	ErrBadNarrow              = &Error{Code: CodeBadNarrow}
	ErrRequestVariableMissing = &Error{Code: CodeRequestVariableMissing}
	ErrRequestVariableInvalid = &Error{Code: CodeRequestVariableInvalid}
)

// BadRequest is the generic 400 error with a formatted message.
func BadRequest(format string, args ...any) *Error {
	return &Error{Code: CodeBadRequest, Msg: fmt.Sprintf(format, args...), Status: statusBadRequest}
}

// NotFound is BAD_REQUEST sent with HTTP 404, Zulip's "resource not found".
func NotFound(msg string) *Error {
	return &Error{Code: CodeBadRequest, Msg: msg, Status: statusNotFound}
}

// VariableMissing reports a required parameter that was not sent.
func VariableMissing(name string) *Error {
	return &Error{Code: CodeRequestVariableMissing, Msg: fmt.Sprintf("Missing '%s' argument", name),
		Status: statusBadRequest, Extra: map[string]any{"var_name": name}}
}

// VariableInvalid reports a parameter whose value a converter refused.
func VariableInvalid(name string, value any) *Error {
	return &Error{Code: CodeRequestVariableInvalid, Msg: fmt.Sprintf("Bad value for '%s': %v", name, value),
		Status: statusBadRequest, Extra: map[string]any{"var_name": name, "bad_value": value}}
}

// Unauthorized is the 401 sent for any credential failure.
func Unauthorized(msg string) *Error {
	return &Error{Code: CodeUnauthorized, Msg: msg, Status: statusUnauthorized}
}

// UnauthorizedPrincipal is a failed role check.
func UnauthorizedPrincipal(msg string) *Error {
	return &Error{Code: CodeUnauthorizedPrincipal, Msg: msg, Status: statusBadRequest}
}

// BadNarrow reports an unknown narrow operator or operand.
func BadNarrow(desc string) *Error {
	return &Error{Code: CodeBadNarrow, Msg: "Invalid narrow operator: " + desc, Status: statusBadRequest,
		Extra: map[string]any{"desc": desc}}
}

func streamNameDoesNotExist(name string) *Error {
	return &Error{Code: CodeStreamDoesNotExist, Msg: fmt.Sprintf("Channel '%s' does not exist", name),
		Status: statusBadRequest, Extra: map[string]any{"stream": name}}
}

func streamIDDoesNotExist(id int) *Error {
	return &Error{Code: CodeStreamDoesNotExist, Msg: fmt.Sprintf("Channel with ID '%d' does not exist", id),
		Status: statusBadRequest, Extra: map[string]any{"stream_id": id}}
}

// badImage reports an upload that is not a usable image.
func badImage(msg string) *Error {
	return &Error{Code: CodeBadImage, Msg: msg, Status: statusBadRequest}
}

func invalidMessage() *Error { return BadRequest("Invalid message(s)") }

func noSuchUser() *Error { return BadRequest("No such user") }

func badEventQueue(id string) *Error {
	return &Error{Code: CodeBadEventQueueID, Msg: "Bad event queue ID: " + id, Status: statusBadRequest,
		Extra: map[string]any{"queue_id": id}}
}
