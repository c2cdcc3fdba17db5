import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { Picture } from "~/content";
import { PersonCard, Portrait } from "./person-card";

const picture: Picture = {
  src: "/assets/maya-160w-B1.webp",
  width: 160,
  height: 160,
  alt: "Portrait of Maya Okafor",
  sources: [
    {
      type: "image/avif",
      candidates: [
        { url: "/assets/maya-160w-A1.avif", width: 160 },
        { url: "/assets/maya-320w-A2.avif", width: 320 },
      ],
    },
    {
      type: "image/webp",
      candidates: [
        { url: "/assets/maya-160w-B1.webp", width: 160 },
        { url: "/assets/maya-320w-B2.webp", width: 320 },
      ],
    },
  ],
  source: "images/maya.jpg",
};

describe("Portrait", () => {
  const html = renderToStaticMarkup(<Portrait picture={picture} />);

  it("offers AVIF first, then WebP, with width descriptors and the size the card shows", () => {
    expect(html).toContain(
      '<source type="image/avif" srcSet="/assets/maya-160w-A1.avif 160w, /assets/maya-320w-A2.avif 320w" sizes="160px"/>',
    );
    expect(html).toContain(
      '<source type="image/webp" srcSet="/assets/maya-160w-B1.webp 160w, /assets/maya-320w-B2.webp 320w" sizes="160px"/>',
    );
    expect(html.indexOf("image/avif")).toBeLessThan(html.indexOf("image/webp"));
  });

  it("has an <img> with intrinsic size, alt text, lazy loading and a srcset of its own", () => {
    const img = /<img [^>]*>/.exec(html)?.[0] ?? "";
    expect(img).toContain('src="/assets/maya-160w-B1.webp"');
    expect(img).toContain('srcSet="/assets/maya-160w-B1.webp 160w, /assets/maya-320w-B2.webp 320w"');
    expect(img).toContain('width="160"');
    expect(img).toContain('height="160"');
    expect(img).toContain('alt="Portrait of Maya Okafor"');
    expect(img).toContain('loading="lazy"');
    // Tailwind's size-40 is 160 px: the CSS size matches the sizes attribute.
    expect(img).toMatch(/class="[^"]*\bsize-40\b/);
  });
});

describe("PersonCard", () => {
  const person = { name: "Grace Liu", title: "Head of Membership", description: "Reads every application." };

  it("shows the portrait when there is one", () => {
    const html = renderToStaticMarkup(<PersonCard person={{ ...person, picture: { ...picture, alt: "Grace at a podium" } }} />);
    expect(html).toContain("<picture>");
    expect(html).toContain('alt="Grace at a podium"');
    expect(html).not.toContain('data-testid="monogram"');
  });

  it("shows a large monogram without a photo", () => {
    const html = renderToStaticMarkup(<PersonCard person={person} />);
    expect(html).not.toContain("<picture>");
    expect(html).toMatch(/data-testid="monogram" class="[^"]*\bsize-40\b[^"]*">GL</);
  });
});
