// TwinRack: one entry point for the no-build front end.
//   import { html, render, useState } from "/static/vendor/preact-htm.js";
// `html` is htm bound to Preact's `h`; everything else is re-exported from Preact and its hooks.
import { h } from "./preact.module.js";
import htm from "./htm.module.js";

export const html = htm.bind(h);

export {
  Component,
  Fragment,
  cloneElement,
  createContext,
  createElement,
  createRef,
  h,
  hydrate,
  isValidElement,
  options,
  render,
  toChildArray,
} from "./preact.module.js";

export {
  useCallback,
  useContext,
  useDebugValue,
  useEffect,
  useErrorBoundary,
  useId,
  useImperativeHandle,
  useLayoutEffect,
  useMemo,
  useReducer,
  useRef,
  useState,
} from "./hooks.module.js";
