#pragma once

#include <QCoreApplication>
#include <QSettings>
#include <QStandardPaths>

namespace uitest {

// The window reads and writes QSettings (limits, geometry, folders). Call from initTestCase(): the test
// program gets its own settings file in Qt's test location, empty, so neither the user's settings nor
// another test program's leak in. The application name stays the test executable's name.
inline void useFreshSettings() {
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("CrawlscopeTest"));
    QSettings().clear();
}

} // namespace uitest
