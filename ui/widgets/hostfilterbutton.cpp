#include "widgets/hostfilterbutton.h"

#include "models/resultfacets.h"
#include "models/resultfiltersortmodel.h"
#include "models/resultsmodel.h"

#include <QLocale>
#include <QMenu>

namespace ui {

namespace {

QString number(qint64 n) {
    return QLocale().toString(n);
}

} // namespace

HostFilterButton::HostFilterButton(ResultFilterSortModel *model, QWidget *parent)
    : QToolButton(parent)
    , m_model(model) {
    setToolTip(tr("Show only some hosts"));
    setPopupMode(QToolButton::InstantPopup);
    setText(tr("All hosts"));
    auto *menu = new QMenu(this);
    setMenu(menu);
    auto apply = [this](const HostFilter &filter, int shownOfListed, const QString &onlyOne) {
        m_model->setHostFilter(filter);
        setText(filter.showsAll()    ? tr("All hosts")
                : !onlyOne.isEmpty() ? onlyOne
                                     : tr("%n host(s)", nullptr, shownOfListed));
    };
    connect(menu, &QMenu::aboutToShow, this, [this, menu, apply] {
        menu->clear();
        const ResultFacets facets =
            ResultFacets::count(m_model->resultsModel()->store(), m_model->failuresOnly());
        QStringList hosts;
        for (const auto &[host, rows] : facets.hosts) {
            hosts.append(host);
            QAction *action =
                menu->addAction(tr("%1 (%2)").arg(host.isEmpty() ? tr("(no host)") : host, number(rows)));
            action->setCheckable(true);
            action->setChecked(m_model->hostFilter().accepts(host));
            action->setData(host);
        }
        // Each choice re-counts which listed hosts remain shown, for the button's text.
        const QList<QAction *> hostActions = menu->actions();
        auto describe = [hosts, apply](const HostFilter &filter) {
            QStringList shown;
            for (const QString &host : hosts) {
                if (filter.accepts(host))
                    shown.append(host);
            }
            apply(filter, int(shown.size()), shown.size() == 1 ? shown.first() : QString());
        };
        for (QAction *action : hostActions) {
            connect(action, &QAction::triggered, this, [this, action, describe](bool on) {
                HostFilter filter = m_model->hostFilter();
                filter.setShown(action->data().toString(), on);
                describe(filter);
            });
        }
        menu->addSeparator();
        QAction *all = menu->addAction(tr("Show All"));
        connect(all, &QAction::triggered, this, [describe] { describe(HostFilter{}); });
    });
}

} // namespace ui
