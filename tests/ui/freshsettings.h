#pragma once

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>

namespace uitest {

// Empty settings, except that the window ignores robots.txt (it obeys it by default): tests that count
// the requests the test site saw count the list's URLs only. Tests about robots.txt set their own rules.
inline void clearSettings() {
    QSettings settings;
    settings.clear();
    settings.setValue(QStringLiteral("crawlRules/robots"), QStringLiteral("ignore"));
}

// The window reads and writes QSettings (limits, geometry, folders). Call from initTestCase(): the test
// process gets its own, empty settings file in a private temporary folder, so neither the user's
// settings, nor another test program's, nor the same test program run at the same time by someone else
// on this machine leak in. The application name stays the test executable's name.
inline void useFreshSettings() {
    QStandardPaths::setTestModeEnabled(true);
    static QTemporaryDir folder(QDir::temp().filePath(QStringLiteral("crawlscope-settings-XXXXXX")));
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, folder.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, folder.path());
    // Window crawls are journaled in crawl files: in the same private folder, removed at exit.
    qputenv("CRAWLSCOPE_CRAWLS_DIR", QFile::encodeName(folder.filePath(QStringLiteral("crawls"))));
    QCoreApplication::setOrganizationName(QStringLiteral("CrawlscopeTest"));
    clearSettings();
}

} // namespace uitest
