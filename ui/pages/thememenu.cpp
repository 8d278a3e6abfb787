#include "pages/thememenu.h"

#include <QActionGroup>
#include <QApplication>
#include <QSettings>

#include <optional>

namespace ui {

namespace {

const QString kThemeKey = QStringLiteral("view/theme");

// The desktop's palette as the application started with it, to go back to from Light or Dark.
const QPalette &systemPalette() {
    static const QPalette palette = QApplication::palette();
    return palette;
}

} // namespace

ThemeMenu::ThemeMenu(QWidget *parent)
    : QMenu(tr("&Theme"), parent) {
    systemPalette(); // captured before any theme replaces it
    auto *group = new QActionGroup(this);
    auto make = [this, group](const QString &text, const QString &name, WindowTheme theme) {
        QAction *action = addAction(text);
        action->setObjectName(name);
        action->setCheckable(true);
        group->addAction(action);
        connect(action, &QAction::triggered, this, [this, theme] { setTheme(theme); });
        return action;
    };
    m_system = make(tr("&System"), QStringLiteral("themeSystem"), WindowTheme::System);
    m_system->setToolTip(tr("The desktop's colours"));
    m_light = make(tr("&Light"), QStringLiteral("themeLight"), WindowTheme::Light);
    m_dark = make(tr("&Dark"), QStringLiteral("themeDark"), WindowTheme::Dark);
    setToolTipsVisible(true);
    const WindowTheme saved = themeFromName(QSettings().value(kThemeKey).toString());
    apply(saved);
}

QAction *ThemeMenu::actionFor(WindowTheme theme) const {
    return theme == WindowTheme::Dark ? m_dark : theme == WindowTheme::Light ? m_light : m_system;
}

void ThemeMenu::setTheme(WindowTheme theme) {
    apply(theme);
    QSettings().setValue(kThemeKey, themeName(theme));
}

void ThemeMenu::apply(WindowTheme theme) {
    m_theme = theme;
    actionFor(theme)->setChecked(true);
    const QPalette palette = theme == WindowTheme::Dark    ? darkPalette()
                             : theme == WindowTheme::Light ? lightPalette()
                                                           : systemPalette();
    if (QApplication::palette() != palette)
        QApplication::setPalette(palette);
    Q_EMIT themeChanged(theme);
}

} // namespace ui
