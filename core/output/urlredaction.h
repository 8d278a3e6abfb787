#pragma once

#include <QString>

namespace crawl {

// Hides URL passwords in text that leaves the program (CSV cells, the summary, log lines):
// "http://user:secret@host/" becomes "http://user:***@host/". The user name stays, so a row still says
// which account was used; an empty password ("user:@") and a user without one are left alone.
// Works on free text too: every "scheme://" in `text` is looked at (an error message may quote a URL,
// an invalid line may be no URL at all). The authority ends at '/', '?', '#', whitespace or a quote.
// The engine keeps the real credentials; only what is shown is redacted.
QString redactUrlPasswords(const QString &text);

} // namespace crawl
