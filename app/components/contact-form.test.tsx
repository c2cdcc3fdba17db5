// @vitest-environment jsdom
import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import { ContactForm } from "./contact-form";
import { toastStore } from "./toast/toast-store";

const SURVEY = "https://members.example.org/survey/get-in-touch?source=site";

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  toastStore.dismiss();
});

function fillAndSubmit() {
  fireEvent.change(screen.getByLabelText("Full Name"), { target: { value: "Ada Lovelace" } });
  fireEvent.change(screen.getByLabelText("Email"), { target: { value: "ada@example.org" } });
  fireEvent.change(screen.getByLabelText("Message"), { target: { value: "Hello" } });
  fireEvent.submit(screen.getByRole("button", { name: /contact us/i }).closest("form")!);
}

describe("ContactForm", () => {
  it("marks every field required, with an e-mail input for Email", () => {
    render(<ContactForm surveyUrl={SURVEY} />);
    for (const label of ["Full Name", "Email", "Message"]) {
      expect(screen.getByLabelText(label)).toHaveProperty("required", true);
    }
    expect(screen.getByLabelText("Email")).toHaveProperty("type", "email");
  });

  it("opens the survey in a new tab, cuts the opener and discards the values", () => {
    // The opener is cut before the tab is sent to the survey.
    let openerWhenSent: unknown = "not sent";
    const popup = {
      opener: {} as unknown,
      location: {
        set href(url: string) {
          openerWhenSent = popup.opener;
          sentTo = url;
        },
      },
    };
    let sentTo = "";
    const open = vi.spyOn(window, "open").mockReturnValue(popup as unknown as Window);
    render(<ContactForm surveyUrl={SURVEY} />);
    fillAndSubmit();
    expect(open).toHaveBeenCalledWith("", "_blank");
    expect(sentTo).toBe(SURVEY);
    expect(openerWhenSent).toBeNull();
    expect(popup.opener).toBeNull();
    expect(screen.getByLabelText("Full Name")).toHaveProperty("value", "");
    expect(toastStore.getState().toasts.filter((t) => t.open)).toHaveLength(0);
  });

  it("offers a link in a toast when the browser blocks the new tab", () => {
    vi.spyOn(window, "open").mockReturnValue(null);
    render(<ContactForm surveyUrl={SURVEY} />);
    fillAndSubmit();
    const [shown] = toastStore.getState().toasts;
    expect(shown?.open).toBe(true);
    expect(shown?.title).toMatch(/blocked/i);
  });

  it("gives the fields no names, so a script-less submission carries none of them", () => {
    const { container } = render(<ContactForm surveyUrl={SURVEY} />);
    const named = [...container.querySelectorAll("input[name], textarea[name]")].map((el) => el.getAttribute("name"));
    // Only the survey URL's own parameters travel, as hidden inputs.
    expect(named).toEqual(["source"]);
    const form = container.querySelector("form")!;
    expect(form.getAttribute("target")).toBe("_blank");
    expect(form.getAttribute("rel")).toBe("noopener noreferrer");
  });
});
