#include "model/outcome.h"

#include <array>

namespace crawl {

namespace {
constexpr std::array<const char *, kOutcomeCount> kNames = {
    "ok",          "http_error", "timeout", "network_error",  "too_large",
    "invalid_url", "cancelled",  "skipped", "blocked_robots", "excluded",
};
} // namespace

QString outcomeName(Outcome outcome) {
    return QString::fromLatin1(kNames[static_cast<size_t>(outcome)]);
}

std::optional<Outcome> outcomeFromName(const QString &name) {
    for (size_t i = 0; i < kNames.size(); ++i) {
        if (name == QLatin1String(kNames[i]))
            return static_cast<Outcome>(i);
    }
    return std::nullopt;
}

} // namespace crawl
