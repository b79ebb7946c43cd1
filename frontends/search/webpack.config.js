const { createConfig } = require('../webpack.common');

module.exports = createConfig({ name: 'search', dir: __dirname, host: false, title: 'Loan search' });
