// The webpack + module-federation set-up shared by the shell (host) and the two remotes.
// Pins and rules that matter (see the toolchain notes): webpack ~5.111 with
// @module-federation/enhanced 2.9; react/react-dom singletons, never eager; an
// `import('./bootstrap')` boundary in every entry; terser with the swc minifier (esbuild's minifier
// wraps remoteEntry.js in an IIFE and breaks loading); CSS in .css files, never <style> elements
// injected at runtime, so the Content-Security-Policy needs no 'unsafe-inline' for styles.
const fs = require('node:fs');
const path = require('node:path');
const webpack = require('webpack');
const HtmlWebpackPlugin = require('html-webpack-plugin');
const MiniCssExtractPlugin = require('mini-css-extract-plugin');
const TerserPlugin = require('terser-webpack-plugin');
const { ModuleFederationPlugin } = require('@module-federation/enhanced/webpack');

const uiVersion = require('../../ui/package.json').version;
const routerVersion = require('react-router/package.json').version;

/**
 * Modules every app gets from one shared instance. React must be one copy for hooks to work; the
 * router, the query client and @lsp/ui must be one copy so a remote sees the shell's BrowserRouter,
 * QueryClient, session and toasts.
 */
const SHARED = {
  react: { singleton: true, requiredVersion: '^19.0.0' },
  'react/jsx-runtime': { singleton: true, requiredVersion: '^19.0.0' },
  'react-dom': { singleton: true, requiredVersion: '^19.0.0' },
  'react-dom/client': { singleton: true, requiredVersion: '^19.0.0' },
  // See router.js: the declarative part of react-router, one instance for the shell and remotes.
  'react-router-dom': {
    import: path.join(__dirname, 'router.js'),
    singleton: true,
    requiredVersion: '^7.0.0',
    version: routerVersion,
  },
  '@tanstack/react-query': { singleton: true, requiredVersion: '^5.0.0' },
  '@lsp/ui': { singleton: true, requiredVersion: `^${uiVersion}`, version: uiVersion },
};

/**
 * Publishes the paths a remote renders (its routes.json, the one list of them) beside its entry, so
 * the shell routes each path to the remote that declares it instead of keeping a copy of the list.
 */
class PublishRoutesPlugin {
  constructor(file) {
    this.file = file;
  }

  apply(compiler) {
    compiler.hooks.thisCompilation.tap('PublishRoutesPlugin', (compilation) => {
      compilation.fileDependencies.add(this.file);
      compilation.hooks.processAssets.tap(
        { name: 'PublishRoutesPlugin', stage: webpack.Compilation.PROCESS_ASSETS_STAGE_ADDITIONAL },
        () => {
          const { paths } = JSON.parse(fs.readFileSync(this.file, 'utf8'));
          compilation.emitAsset('routes.json', new webpack.sources.RawSource(JSON.stringify({ paths })));
        },
      );
    });
  }
}

/**
 * @param {object} app
 * @param {string} app.name          federation name: shell, search, dashboard
 * @param {string} app.dir           the frontend's folder
 * @param {boolean} app.host         the shell loads remotes at runtime and exposes nothing
 * @param {string} app.title         page title of its HTML page
 */
function createConfig({ name, dir, host, title }) {
  return (_env, argv) => {
    const mode = argv.mode ?? 'production';
    const production = mode === 'production';
    return {
      mode,
      context: dir,
      entry: { main: './src/index.ts' },
      devtool: production ? false : 'eval-cheap-module-source-map',
      output: {
        path: path.join(dir, 'dist'),
        // The shell's pages live at deep paths (/dip/development/1), so its assets are addressed
        // from the root; remotes work out where they were loaded from (/mf/search/...).
        publicPath: host ? '/' : 'auto',
        // Entry files keep plain names (the federation runtime cannot resolve a hash in them) and
        // are served with no-cache; every other chunk is content-hashed and cached for a year.
        filename: '[name].js',
        chunkFilename: production ? '[name].[contenthash:10].js' : '[name].js',
        uniqueName: name,
        clean: true,
      },
      // TypeScript's NodeNext mode wants '.js' on dynamic imports ('./bootstrap.js'); they name .ts/.tsx files.
      resolve: {
        extensions: ['.tsx', '.ts', '.mjs', '.js', '.json'],
        extensionAlias: { '.js': ['.ts', '.tsx', '.js'] },
      },
      module: {
        rules: [
          {
            test: /\.[cm]?tsx?$/,
            exclude: /node_modules/,
            use: {
              loader: 'swc-loader',
              options: {
                jsc: {
                  parser: { syntax: 'typescript', tsx: true },
                  transform: { react: { runtime: 'automatic', development: !production } },
                  target: 'es2020',
                },
              },
            },
          },
          // Every stylesheet becomes a .css file the page (or, for a lazily loaded chunk, webpack's
          // runtime) links with <link rel="stylesheet">, in development too, so pages run under the
          // same Content-Security-Policy in every mode.
          { test: /\.css$/, use: [MiniCssExtractPlugin.loader, 'css-loader'] },
        ],
      },
      plugins: [
        // Contracts are shared with the services; the only Node built-in they touch is
        // crypto.randomUUID, which browsers have natively.
        new webpack.NormalModuleReplacementPlugin(/^node:crypto$/, path.join(__dirname, 'browser-crypto.js')),
        new ModuleFederationPlugin({
          name,
          ...(host ? {} : { filename: 'remoteEntry.js', exposes: { './App': './src/app.tsx' } }),
          shared: SHARED,
          manifest: true,
          dts: false,
        }),
        new MiniCssExtractPlugin({
          filename: production ? '[name].[contenthash:10].css' : '[name].css',
          chunkFilename: production ? '[name].[contenthash:10].css' : '[name].css',
        }),
        ...(host ? [] : [new PublishRoutesPlugin(path.join(dir, 'routes.json'))]),
        new HtmlWebpackPlugin({
          template: path.join(__dirname, 'index.html'),
          title,
          chunks: ['main'],
          // Copied to /favicon.ico and linked from the page: browsers ask for it on every site.
          favicon: path.join(__dirname, 'favicon.ico'),
        }),
      ],
      optimization: {
        minimize: production,
        minimizer: [
          new TerserPlugin({
            minify: TerserPlugin.swcMinify,
            extractComments: false,
            terserOptions: { compress: { passes: 2 } },
          }),
        ],
      },
      performance: { hints: false },
      stats: 'errors-warnings',
      infrastructureLogging: { level: 'error' },
    };
  };
}

module.exports = { createConfig, SHARED };
