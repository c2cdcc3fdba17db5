// The bridge to the editor (Sveltia CMS): a preview template is a component of the editor's own copy
// of React, which it renders into the preview's iframe with the entry being edited. Ours draws one
// element with the editor's React (its globals `h` and `createClass`, the customisation API it keeps
// from Decap CMS) and hands it to a root of the site's own React (pane.tsx) on mount, on every update
// and on unmount. Components of one copy of React fail inside the other ("Invalid hook call").
import type { CustomPreviewTemplate, CustomPreviewTemplateProps } from "@sveltia/cms";
import type { ReactElement } from "react";
import type { ContentFileKey } from "~/content/file-pages";
import { mountPane, type Pane } from "./pane";

/** A template instance, as create-react-class binds `this`. */
type Instance = { props: CustomPreviewTemplateProps; container?: HTMLElement | null; pane?: Pane };
type ClassSpec = ThisType<Instance> & {
  componentDidMount(): void;
  componentDidUpdate(): void;
  componentWillUnmount(): void;
  render(): ReactElement;
};
/** What the editor's module puts on `window` when it loads. */
type EditorReact = {
  h: (type: "div", props: { ref: (element: HTMLElement | null) => void }) => ReactElement;
  createClass: (spec: ClassSpec) => CustomPreviewTemplate;
};

/** The entry's values, as plain data (the editor holds them in an Immutable.js map). */
const dataOf = ({ entry }: CustomPreviewTemplateProps): unknown => entry.toJS().data;

/** The preview template of one file of content/, for CMS.registerPreviewTemplate. */
export function previewTemplate(file: ContentFileKey): CustomPreviewTemplate {
  const { h, createClass } = window as unknown as EditorReact;
  function show(this: Instance) {
    this.pane?.show({ data: dataOf(this.props), getAsset: this.props.getAsset });
  }
  return createClass({
    componentDidMount() {
      if (!this.container) return;
      this.pane = mountPane(this.container, file);
      show.call(this);
    },
    componentDidUpdate() {
      show.call(this);
    },
    componentWillUnmount() {
      this.pane?.unmount();
    },
    render() {
      return h("div", { ref: (element) => (this.container = element) });
    },
  });
}
