#include "commandlinequality.h"

namespace ui {

bool namesQualityFlag(const QStringList &flags) {
    static const QStringList quality{QStringLiteral("robots"),
                                     QStringLiteral("robots-agent"),
                                     QStringLiteral("ignore-crawl-delay"),
                                     QStringLiteral("include"),
                                     QStringLiteral("exclude"),
                                     QStringLiteral("allow-hosts"),
                                     QStringLiteral("expect-status"),
                                     QStringLiteral("expect-type"),
                                     QStringLiteral("expect-text"),
                                     QStringLiteral("expect-regex"),
                                     QStringLiteral("expect-title"),
                                     QStringLiteral("min-bytes"),
                                     QStringLiteral("soft-404"),
                                     QStringLiteral("soft-404-pattern")};
    for (const QString &flag : flags) {
        if (quality.contains(flag))
            return true;
    }
    return false;
}

} // namespace ui
