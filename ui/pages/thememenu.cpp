#include "pages/thememenu.h"

#include <QActionGroup>
#include <QApplication>
#include <QEvent>
#include <QSettings>
#include <QStyleHints>
#include <QTimer>

namespace ui {

namespace {

const QString kThemeKey = QStringLiteral("view/theme");

} // namespace

ThemeMenu::ThemeMenu(QWidget *parent)
    : QMenu(tr("&Theme"), parent) {
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

    // The desktop's colour scheme can change while the window is open. Qt 6.4 has no colorScheme
    // signal; where its platform theme notices a change it sends ThemeChange to the windows (and, for a
    // palette it follows itself, ApplicationPaletteChange). Qt 6.5 adds QStyleHints::colorSchemeChanged.
    m_followDesktop.setSingleShot(true);
    m_followDesktop.setInterval(0); // one re-read for the many ThemeChange events of one change
    connect(&m_followDesktop, &QTimer::timeout, this, [this] {
        if (m_theme == WindowTheme::System)
            apply(WindowTheme::System);
    });
    qApp->installEventFilter(this);
#if QT_VERSION >= QT_VERSION_CHECK(6, 5, 0)
    connect(QGuiApplication::styleHints(), &QStyleHints::colorSchemeChanged, &m_followDesktop,
            qOverload<>(&QTimer::start));
#endif
}

bool ThemeMenu::eventFilter(QObject *watched, QEvent *event) {
    if (event->type() == QEvent::ThemeChange && m_theme == WindowTheme::System)
        m_followDesktop.start();
    return QMenu::eventFilter(watched, event);
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
    if (theme == WindowTheme::System) {
        // An empty palette hands the colours back to the platform theme, which Qt then keeps current;
        // a palette captured at start would go stale when the desktop changes its scheme.
        if (QCoreApplication::testAttribute(Qt::AA_SetPalette))
            QApplication::setPalette(QPalette());
    } else {
        const QPalette palette = theme == WindowTheme::Dark ? darkPalette() : lightPalette();
        if (QApplication::palette() != palette)
            QApplication::setPalette(palette);
    }
    Q_EMIT themeChanged(theme);
}

} // namespace ui
