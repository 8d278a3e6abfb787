#include "model/crawlquality.h"

namespace crawl {

QString robotsModeName(RobotsMode mode) {
    switch (mode) {
    case RobotsMode::Obey:
        return QStringLiteral("obey");
    case RobotsMode::Ignore:
        return QStringLiteral("ignore");
    case RobotsMode::Report:
        return QStringLiteral("report");
    }
    return QStringLiteral("obey");
}

std::optional<RobotsMode> robotsModeFromName(const QString &name) {
    for (const RobotsMode mode : {RobotsMode::Obey, RobotsMode::Ignore, RobotsMode::Report}) {
        if (name == robotsModeName(mode))
            return mode;
    }
    return std::nullopt;
}

} // namespace crawl
