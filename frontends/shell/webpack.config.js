const { createConfig } = require('../webpack.common');

module.exports = createConfig({
  name: 'shell',
  dir: __dirname,
  host: true,
  title: 'LoanSearch UK — property finance search',
});
