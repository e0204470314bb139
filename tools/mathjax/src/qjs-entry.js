// SPDX-License-Identifier: Apache-2.0
// Entry of the bundle loaded into QJSEngine (and into a Node vm by prerender.js):
// exposes poslabTex2svg(tex, display) on the global object.
'use strict';
const {tex2svg} = require('./tex2svg.js');
globalThis.poslabTex2svg = function (tex, display) { return tex2svg(tex, display !== false); };
