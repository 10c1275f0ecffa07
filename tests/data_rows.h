// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// Rows of a data-driven case that varies one name (a policy, an I/O method, a dataset) or one flag.
// Included after the engine's headers: Qt's `emit` macro would rename ReadStream::emit.

#include <QString>
#include <QTest>

#include <initializer_list>

namespace la::test {

// Adds the QString column `column` and a row a name, named after it.
inline void addNameRows(const char* column, std::initializer_list<const char*> names) {
    QTest::addColumn<QString>(column);
    for (const char* name : names)
        QTest::newRow(name) << QString::fromLatin1(name);
}

// Adds the bool column `column` and its two rows: false named `whenFalse`, true named `whenTrue`.
inline void addFlagRows(const char* column, const char* whenFalse, const char* whenTrue) {
    QTest::addColumn<bool>(column);
    QTest::newRow(whenFalse) << false;
    QTest::newRow(whenTrue) << true;
}

} // namespace la::test
