#include "settings/crawlrules.h"

#include <QObject>
#include <QRegularExpression>
#include <QSettings>
#include <QStringList>

namespace ui {

namespace {

// The lines of a multi-line field that hold a rule, with their 1-based line numbers.
QList<QPair<int, QString>> ruleLines(const QString &text) {
    QList<QPair<int, QString>> lines;
    const QStringList all = text.split(QLatin1Char('\n'));
    for (qsizetype i = 0; i < all.size(); ++i) {
        const QString line = all[i].trimmed();
        if (!line.isEmpty() && !line.startsWith(QLatin1Char('#')))
            lines.append({int(i + 1), line});
    }
    return lines;
}

// RFC 9309 section 2.2.1: a product token is letters, '_' and '-' (the command line checks the same).
bool isProductToken(const QString &token) {
    if (token.isEmpty() || token.size() > 100)
        return false;
    for (const QChar c : token) {
        if (!((c.isLetter() && c.unicode() < 128) || c == QLatin1Char('_') || c == QLatin1Char('-')))
            return false;
    }
    return true;
}

QString regexError(const QString &field, int line, const QString &pattern,
                   const QRegularExpression &expression) {
    const QString where = line > 0 ? QObject::tr("%1, line %2").arg(field).arg(line) : field;
    return QObject::tr("%1: \"%2\" is not a valid regular expression: %3 (at character %4)")
        .arg(where, pattern, expression.errorString())
        .arg(expression.patternErrorOffset() + 1);
}

} // namespace

CrawlRulesParse parseCrawlRules(const CrawlRules &rules) {
    CrawlRulesParse parse;
    crawl::CrawlQuality &quality = parse.quality;
    const auto fail = [&parse](CrawlRulesField field, const QString &error) {
        parse.error = error;
        parse.field = field;
        parse.quality = crawl::CrawlQuality{}; // all or nothing: half a rule set is never applied
        return parse;
    };

    const auto robots = crawl::robotsModeFromName(rules.robots.trimmed().toLower());
    if (!robots)
        return fail(CrawlRulesField::Robots,
                    QObject::tr("robots.txt must be obey, ignore or report (got \"%1\")").arg(rules.robots));
    quality.robots = *robots;
    const QString agent = rules.robotsAgent.trimmed();
    if (!isProductToken(agent))
        return fail(CrawlRulesField::RobotsAgent,
                    QObject::tr("Robots agent: \"%1\" is not a product token (letters, '_' and '-' only)")
                        .arg(rules.robotsAgent));
    quality.robotsAgent = agent.toLatin1();
    quality.ignoreCrawlDelay = rules.ignoreCrawlDelay;

    // Checked here first so that the message speaks of the dialog's field and line, not of a flag.
    const auto addPatterns = [&](const QString &text, CrawlRulesField field, const QString &name,
                                 bool include) -> bool {
        for (const auto &[line, pattern] : ruleLines(text)) {
            const QRegularExpression expression(pattern);
            if (!expression.isValid()) {
                fail(field, regexError(name, line, pattern, expression));
                return false;
            }
            const QString error =
                include ? quality.scope.addInclude(pattern) : quality.scope.addExclude(pattern);
            if (!error.isEmpty()) {
                fail(field, QObject::tr("%1, line %2: %3").arg(name).arg(line).arg(error));
                return false;
            }
        }
        return true;
    };
    if (!addPatterns(rules.include, CrawlRulesField::Include, QObject::tr("Include"), true) ||
        !addPatterns(rules.exclude, CrawlRulesField::Exclude, QObject::tr("Exclude"), false))
        return parse;
    if (!ruleLines(rules.allowedHosts).isEmpty()) {
        const QStringList errors = quality.scope.setAllowedHosts(rules.allowedHosts.toUtf8());
        if (!errors.isEmpty())
            return fail(CrawlRulesField::AllowedHosts, QObject::tr("Allowed hosts, %1").arg(errors.first()));
        if (quality.scope.allowedHostCount() == 0)
            return fail(CrawlRulesField::AllowedHosts,
                        QObject::tr("Allowed hosts: no host listed (every URL would be excluded)"));
    }

    crawl::AcceptanceCriteria &criteria = quality.acceptance;
    QString why;
    const QString statuses = rules.expectStatus.trimmed();
    if (!statuses.isEmpty()) {
        const auto ranges = crawl::parseStatusList(statuses, &why);
        if (!ranges)
            return fail(CrawlRulesField::ExpectStatus, QObject::tr("Expected status: %1").arg(why));
        criteria.statuses = *ranges;
    }
    if (!rules.expectType.trimmed().isEmpty()) {
        const auto types = crawl::parseContentTypeList(rules.expectType, &why);
        if (!types)
            return fail(CrawlRulesField::ExpectType, QObject::tr("Expected content type: %1").arg(why));
        criteria.contentTypes = *types;
    }
    criteria.expectedText = rules.expectText;
    if (!rules.expectRegex.isEmpty()) {
        QRegularExpression expression(rules.expectRegex, QRegularExpression::UseUnicodePropertiesOption);
        if (!expression.isValid())
            return fail(CrawlRulesField::ExpectRegex,
                        regexError(QObject::tr("Expected regex"), 0, rules.expectRegex, expression));
        expression.optimize();
        criteria.expectedRegex = expression;
    }
    criteria.expectTitle = rules.expectTitle;
    if (rules.minBytes < 0)
        return fail(CrawlRulesField::MinBytes, QObject::tr("Minimum size must not be negative"));
    criteria.minBytes = rules.minBytes;
    const QString soft404 = rules.soft404.trimmed().toLower();
    if (soft404 == QLatin1String("off"))
        criteria.soft404 = crawl::Soft404Mode::Off;
    else if (soft404 == QLatin1String("report"))
        criteria.soft404 = crawl::Soft404Mode::Report;
    else if (soft404 == QLatin1String("reject"))
        criteria.soft404 = crawl::Soft404Mode::Reject;
    else
        return fail(CrawlRulesField::Soft404,
                    QObject::tr("Soft 404 must be off, report or reject (got \"%1\")").arg(rules.soft404));
    return parse;
}

CrawlRules loadCrawlRules(QSettings &settings) {
    CrawlRules rules;
    settings.beginGroup(QStringLiteral("crawlRules"));
    const auto text = [&settings](const char *key, const QString &fallback) {
        return settings.value(QLatin1String(key), fallback).toString();
    };
    rules.robots = text("robots", rules.robots);
    rules.robotsAgent = text("robotsAgent", rules.robotsAgent);
    rules.ignoreCrawlDelay = settings.value(QStringLiteral("ignoreCrawlDelay"), false).toBool();
    rules.include = text("include", {});
    rules.exclude = text("exclude", {});
    rules.allowedHosts = text("allowedHosts", {});
    rules.expectStatus = text("expectStatus", rules.expectStatus);
    rules.expectType = text("expectType", {});
    rules.expectText = text("expectText", {});
    rules.expectRegex = text("expectRegex", {});
    rules.expectTitle = settings.value(QStringLiteral("expectTitle"), false).toBool();
    rules.minBytes = settings.value(QStringLiteral("minBytes"), 0).toLongLong();
    rules.soft404 = text("soft404", rules.soft404);
    settings.endGroup();
    return rules;
}

void saveCrawlRules(QSettings &settings, const CrawlRules &rules) {
    settings.beginGroup(QStringLiteral("crawlRules"));
    settings.setValue(QStringLiteral("robots"), rules.robots);
    settings.setValue(QStringLiteral("robotsAgent"), rules.robotsAgent);
    settings.setValue(QStringLiteral("ignoreCrawlDelay"), rules.ignoreCrawlDelay);
    settings.setValue(QStringLiteral("include"), rules.include);
    settings.setValue(QStringLiteral("exclude"), rules.exclude);
    settings.setValue(QStringLiteral("allowedHosts"), rules.allowedHosts);
    settings.setValue(QStringLiteral("expectStatus"), rules.expectStatus);
    settings.setValue(QStringLiteral("expectType"), rules.expectType);
    settings.setValue(QStringLiteral("expectText"), rules.expectText);
    settings.setValue(QStringLiteral("expectRegex"), rules.expectRegex);
    settings.setValue(QStringLiteral("expectTitle"), rules.expectTitle);
    settings.setValue(QStringLiteral("minBytes"), rules.minBytes);
    settings.setValue(QStringLiteral("soft404"), rules.soft404);
    settings.endGroup();
}

} // namespace ui
