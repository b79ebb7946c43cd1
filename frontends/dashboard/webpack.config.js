const { createConfig } = require('../webpack.common');

module.exports = createConfig({ name: 'dashboard', dir: __dirname, host: false, title: 'Dashboard' });
