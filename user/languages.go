package user

import (
	"time"
	// The time zone database is built in, so any IANA name is known
	// whatever the machine has installed.
	_ "time/tzdata"
)

// languageNames are the languages Zulip's server is translated into: the
// codes default_language accepts, with each language's English name.
var languageNames = map[string]string{
	"ar": "Arabic", "be": "Belarusian", "bg": "Bulgarian", "bn": "Bengali", "bqi": "Bakhtiari",
	"ca": "Catalan", "cs": "Czech", "cy": "Welsh", "da": "Danish", "de": "German", "el": "Greek",
	"en": "English", "en-gb": "British English", "eo": "Esperanto", "es": "Spanish", "et": "Estonian",
	"fa": "Persian", "fi": "Finnish", "fr": "French", "gl": "Galician", "gu": "Gujarati", "hi": "Hindi",
	"hu": "Hungarian", "id": "Indonesian", "id-id": "Indonesian (Indonesia)", "it": "Italian",
	"ja": "Japanese", "kk": "Kazakh", "ko": "Korean", "lt": "Lithuanian", "lv": "Latvian",
	"ml": "Malayalam", "mn": "Mongolian", "my": "Burmese", "nb-no": "Norwegian Bokmål",
	"nl": "Dutch", "no": "Norwegian", "pl": "Polish", "pt": "Portuguese", "pt-br": "Brazilian Portuguese",
	"pt-pt": "European Portuguese", "ro": "Romanian", "ru": "Russian", "si": "Sinhala", "sl": "Slovenian",
	"sr": "Serbian", "sv": "Swedish", "ta": "Tamil", "tl": "Tagalog", "tr": "Turkish", "uk": "Ukrainian",
	"vi": "Vietnamese", "zh-hans": "Simplified Chinese", "zh-hant": "Traditional Chinese",
	"zh-tw": "Chinese (Taiwan)",
}

// LanguageName is the English name of a language code default_language
// accepts; ok is false for any other code.
func LanguageName(code string) (name string, ok bool) {
	name, ok = languageNames[code]
	return name, ok
}

// ValidTimezone reports whether name is an IANA time zone identifier (as
// Python's zoneinfo knows them): not empty, and not Go's "Local".
func ValidTimezone(name string) bool {
	if name == "" || name == "Local" {
		return false
	}
	_, err := time.LoadLocation(name)
	return err == nil
}
