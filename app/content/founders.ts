import type { Founder } from "./schema";

// SAMPLE DATA: fictional founders and companies. Replace with real members (with their consent).
// To add a photo, put a square .webp in public/images/people/ and set
// image: { src: "/images/people/name.webp", width: 400, height: 400, alt: "Portrait of …" }.
export const founders: Founder[] = [
  {
    name: "Maya Okafor",
    title: "Co-founder & CEO",
    company: "Northwind Health",
    description: "Building care-navigation software for small clinics. Previously led product at a Series C health-tech company.",
    linkedinUrl: "https://www.linkedin.com/in/sample-maya-okafor",
  },
  {
    name: "Daniel Reyes",
    title: "Founder",
    company: "Contoso Robotics",
    description: "Warehouse automation for mid-size retailers. Mechanical engineer turned two-time founder.",
    linkedinUrl: "https://www.linkedin.com/in/sample-daniel-reyes",
  },
  {
    name: "Priya Nair",
    title: "Co-founder & CTO",
    company: "Fabrikam Climate",
    description: "Measuring the carbon footprint of supply chains from invoices. Former research scientist.",
    linkedinUrl: "https://www.linkedin.com/in/sample-priya-nair",
  },
  {
    name: "Jonah Feld",
    title: "Founder & CEO",
    company: "Tailspin Learning",
    description: "Tutoring marketplace for community colleges. Started the company from a dorm room in 2019.",
    linkedinUrl: "https://www.linkedin.com/in/sample-jonah-feld",
  },
  {
    name: "Sofia Marchetti",
    title: "Co-founder & COO",
    company: "Adventure Works Foods",
    description: "A consumer brand of shelf-stable Italian pantry staples, now in 1,200 stores.",
    linkedinUrl: "https://www.linkedin.com/in/sample-sofia-marchetti",
  },
  {
    name: "Kwame Mensah",
    title: "Founder",
    company: "Woodgrove Finance",
    description: "Banking infrastructure for credit unions. Former investment banker and angel investor.",
    linkedinUrl: "https://www.linkedin.com/in/sample-kwame-mensah",
  },
];
