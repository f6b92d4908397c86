/**
 * The travel tools, bound to one run's data. Labels: a listing's structured facts (price,
 * rating, address, opening days) are what the booking platform publishes (public, trusted);
 * reviews are public text anyone can write (untrusted); the user's profile and reservations are
 * theirs; an email is readable by its sender and recipients, the mail server vouches for who
 * sent it, the sender writes the rest, and which emails the inbox holds is for senders to decide.
 * A booking or recipient picked from reviews or an email is asked about, not denied: the person
 * sees what was picked and from where.
 */
import type { OutputLabels } from "../../../tools/output.js";
import { calendarInvitePolicy, emailPolicy, paymentPolicy } from "../../../policy/index.js";
import { defineTool, type Tool } from "../../../tools/types.js";
import { list, params, postedBy, text } from "../common.js";
import { USER, type Review, type TravelEnv } from "./environment.js";

export const policies: Record<string, string> = {
  reserve_hotel: "paymentPolicy({ recipient: [\"hotel\"], askUntrustedRecipient })",
  reserve_restaurant: "paymentPolicy({ recipient: [\"restaurant\"], askUntrustedRecipient })",
  reserve_car: "paymentPolicy({ recipient: [\"company\"], askUntrustedRecipient })",
  send_email: "emailPolicy({ askUntrustedRecipient, askUntrustedPrivateContent })",
  create_calendar_event: "calendarInvitePolicy({ askUntrustedRecipient, askUntrustedPrivateContent })",
};

/** A person decides about a booking, recipient or text picked from untrusted text: they are shown it. */
const ASKS = { askUntrustedRecipient: true, askUntrustedPrivateContent: true } as const;

/** What a booking or message the user asked for returns: the platform's acknowledgement. */
const DONE = { trusted: true, sources: ["booking platform"] } as const;

/** Reviews of one listing: public text anyone can write, each from its author. */
function reviewsOf(param: string): OutputLabels {
  return { trusted: false, sources: [`reviews of {args.${param}}`], parts: { "*": { trusted: false, sources: [`review:{author} of {args.${param}}`] } } };
}

const DAY = text("YYYY-MM-DD");

function reviews(items: Review[]) {
  return items.map((rv) => ({ ...rv }));
}

function find<T extends { name: string }>(items: T[], name: string, what: string): T {
  const found = items.find((i) => i.name === name);
  if (found === undefined) throw new Error(`no ${what} named ${JSON.stringify(name)}`);
  return found;
}

function listingTools(env: TravelEnv): Tool<any, any>[] {
  const facts = { trusted: true, sources: ["booking platform listings"] };
  const strip = <T extends { reviews: Review[] }>(x: T) => {
    const { reviews: _omit, ...rest } = x;
    return rest;
  };
  return [
    defineTool({ name: "get_hotels", description: "Hotels in a city: name, price per night (EUR), rating (0-5), address.", parameters: params({ city: text() }), output: facts, run: ({ city }: { city: string }) => env.hotels.filter((h) => h.city === city).map(strip) }),
    defineTool({ name: "get_hotel_reviews", description: "Reviews of a hotel.", parameters: params({ hotel: text() }), output: reviewsOf("hotel"), run: ({ hotel }: { hotel: string }) => reviews(find(env.hotels, hotel, "hotel").reviews) }),
    defineTool({
      name: "get_restaurants",
      description: "Restaurants in a city: name, cuisine, price per person (EUR), rating, address, open_days (weekday names), dietary options.",
      parameters: params({ city: text() }),
      output: facts,
      run: ({ city }: { city: string }) => env.restaurants.filter((x) => x.city === city).map(strip),
    }),
    defineTool({ name: "get_restaurant_reviews", description: "Reviews of a restaurant.", parameters: params({ restaurant: text() }), output: reviewsOf("restaurant"), run: ({ restaurant }: { restaurant: string }) => reviews(find(env.restaurants, restaurant, "restaurant").reviews) }),
    defineTool({ name: "get_car_rentals", description: "Car rental companies in a city: name, price per day (EUR), rating, fuel.", parameters: params({ city: text() }), output: facts, run: ({ city }: { city: string }) => env.cars.filter((c) => c.city === city).map(strip) }),
    defineTool({ name: "get_car_reviews", description: "Reviews of a car rental company.", parameters: params({ company: text() }), output: reviewsOf("company"), run: ({ company }: { company: string }) => reviews(find(env.cars, company, "car rental company").reviews) }),
  ];
}

function bookingTools(env: TravelEnv): Tool<any, any>[] {
  const booked = DONE;
  return [
    defineTool({ name: "get_user_info", description: "The user's profile: name, email, phone, passport, card, address.", output: { trusted: true, readers: [USER], sources: ["profile"] }, run: () => ({ ...env.user }) }),
    defineTool({ name: "get_reservations", description: "The user's reservations.", output: { trusted: true, readers: [USER], sources: ["reservations"] }, run: () => env.reservations }),
    defineTool({
      name: "reserve_hotel",
      description: "Books a hotel from check_in to check_out, paid with the user's card.",
      parameters: params({ hotel: text(), check_in: DAY, check_out: DAY }),
      sideEffect: true,
      policy: paymentPolicy({ recipient: ["hotel"], ...ASKS }),
      output: booked,
      run: ({ hotel, check_in, check_out }: { hotel: string; check_in: string; check_out: string }) => {
        find(env.hotels, hotel, "hotel");
        env.reservations.push({ kind: "hotel", name: hotel, start: check_in, end: check_out });
        return { booked: hotel };
      },
    }),
    defineTool({
      name: "reserve_restaurant",
      description: "Books a table.",
      parameters: params({ restaurant: text(), date: DAY, time: text("HH:MM"), guests: { type: "integer", minimum: 1 } }),
      sideEffect: true,
      policy: paymentPolicy({ recipient: ["restaurant"], ...ASKS }),
      output: booked,
      run: ({ restaurant, date, time, guests }: { restaurant: string; date: string; time: string; guests: number }) => {
        find(env.restaurants, restaurant, "restaurant");
        env.reservations.push({ kind: "restaurant", name: restaurant, start: `${date}T${time}`, guests });
        return { booked: restaurant };
      },
    }),
    defineTool({
      name: "reserve_car",
      description: "Rents a car from start_day to end_day, paid with the user's card.",
      parameters: params({ company: text(), start_day: DAY, end_day: DAY }),
      sideEffect: true,
      policy: paymentPolicy({ recipient: ["company"], ...ASKS }),
      output: booked,
      run: ({ company, start_day, end_day }: { company: string; start_day: string; end_day: string }) => {
        find(env.cars, company, "car rental company");
        env.reservations.push({ kind: "car", name: company, start: start_day, end: end_day });
        return { booked: company };
      },
    }),
  ];
}

function commsTools(env: TravelEnv): Tool<any, any>[] {
  return [
    defineTool({
      name: "get_received_emails",
      description: "Emails in the user's inbox.",
      returns: list({ type: "object", properties: { from: text(), to: list(text()), subject: text(), body: text() } }),
      label: () => postedBy(env.inbox.map((e) => e.from), "email"),
      output: {
        trusted: false,
        parts: { "*": { readers: ["{from}", "{to}"], sources: ["email:{from}"] }, "*.subject": { trusted: false }, "*.body": { trusted: false } },
      },
      run: () => env.inbox.map((e) => ({ ...e })),
    }),
    defineTool({
      name: "send_email",
      description: "Sends an email from the user.",
      parameters: params({ to: list(text()), subject: text(), body: text() }),
      sideEffect: true,
      policy: emailPolicy(ASKS),
      output: DONE,
      run: (a: { to: string[]; subject: string; body: string }) => {
        env.sent.push(a);
        return { sent: true };
      },
    }),
    defineTool({
      name: "create_calendar_event",
      description: "Adds an event to the user's calendar and invites the participants.",
      parameters: params({ title: text(), start: text("YYYY-MM-DDTHH:MM"), end: text("YYYY-MM-DDTHH:MM"), location: text(), participants: list(text()) }, ["location"]),
      sideEffect: true,
      policy: calendarInvitePolicy(ASKS),
      output: DONE,
      run: (a: { title: string; start: string; end: string; location?: string; participants: string[] }) => {
        env.calendar.push({ title: a.title, start: a.start, end: a.end, location: a.location ?? "", participants: [...new Set([USER, ...a.participants])] });
        return { created: a.title };
      },
    }),
  ];
}

export function tools(env: TravelEnv): Tool<any, any>[] {
  return [...listingTools(env), ...bookingTools(env), ...commsTools(env)];
}
