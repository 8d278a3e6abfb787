#pragma once

#include <QtGlobal>

namespace crawl {

// The values a crawl setting may take, wherever it comes from: the command line, a crawl file's stored
// record (which may be hostile) or a shared crawl. One table, so a file can never ask for more than a
// user could type (in-flight 100000, timeouts that overflow int milliseconds).
struct SettingRange {
    qint64 min;
    qint64 max;
    constexpr bool contains(qint64 value) const { return value >= min && value <= max; }
};

struct RealSettingRange {
    double min;
    double max;
    constexpr bool contains(double value) const { return value >= min && value <= max; }
};

namespace settingrange {
inline constexpr SettingRange globalInFlight{1, 4096};
inline constexpr SettingRange perHostInFlight{1, 1024};
inline constexpr SettingRange hostOverrideInFlight{1, 1024};
inline constexpr SettingRange intervalMs{0, 3'600'000};
inline constexpr SettingRange maxRetries{0, 100};
inline constexpr SettingRange backoffMs{0, 3'600'000};
inline constexpr SettingRange maxRetryAfterS{0, 86'400};
inline constexpr SettingRange maxUrlTimeS{1, 86'400};
inline constexpr SettingRange totalTimeoutS{1, 86'400};
inline constexpr SettingRange connectTimeoutS{1, 3'600};
inline constexpr SettingRange idleTimeoutS{1, 86'400};
inline constexpr SettingRange maxBodyBytes{1, qint64(1) << 40};
inline constexpr SettingRange maxRedirects{0, 100};
inline constexpr SettingRange fetchThreads{1, 16};
inline constexpr SettingRange breakerWindow{1, 1000};
inline constexpr SettingRange breakerWindowS{1, 7 * 86'400};
inline constexpr SettingRange breakerCooldownS{1, 86'400};
inline constexpr SettingRange breakerCooldownCapFactor{1, 1000};
inline constexpr SettingRange breakerGiveUpS{1, 7 * 86'400};
inline constexpr RealSettingRange jitter{0.0, 1.0};
inline constexpr RealSettingRange maxRatePerSec{0.0, 1e6};
inline constexpr RealSettingRange breakerThreshold{0.01, 1.0};
} // namespace settingrange

} // namespace crawl
