package domain

import (
	"time"
)

// User is an account, known by its email address.
type User struct {
	ID     int64
	Email  string
	Name   string
	Locale string
	// TimeZone is where the owner reads his deadlines (an IANA name such
	// as "Europe/Berlin"); "" until his browser tells the page: UTC.
	TimeZone     string
	VacationDays int // per calendar year
	// CalendarVersion is the version of the calendar link: replacing the
	// link bumps it, and calendar tokens of older versions are refused.
	CalendarVersion int
	// ReplyConfirmations says the owner wants an email confirming each
	// turn he plays by replying to an email (on unless he turns it off).
	ReplyConfirmations bool
	CreatedAt          time.Time
}
