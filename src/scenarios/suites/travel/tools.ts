/**
 * The travel tools, bound to one run's data. Labels: a listing's structured facts (price,
 * rating, address, opening days) are what the booking platform publishes (public, trusted);
 * reviews are public text anyone can write (untrusted); the user's profile and reservations are
 * theirs; an email is readable by its sender and recipients and comes from its sender.
 */
import { Label, labeled } from "../../../labels/index.js";
import { calendarInvitePolicy, emailPolicy, paymentPolicy } from "../../../policy/index.js";
import { defineTool, type Tool } from "../../../tools/types.js";
import { fromOthers, list, listingOf, params, publicText, serviceFacts, text, usersOwn } from "../common.js";
import { USER, type Review, type TravelEnv } from "./environment.js";

export const policies: Record<string, string> = {
  reserve_hotel: "paymentPolicy({ recipient: [\"hotel\"] })",
  reserve_restaurant: "paymentPolicy({ recipient: [\"restaurant\"] })",
  reserve_car: "paymentPolicy({ recipient: [\"company\"] })",
  send_email: "emailPolicy()",
  create_calendar_event: "calendarInvitePolicy()",
};

const DAY = text("YYYY-MM-DD");

function reviews(subject: string, items: Review[]) {
  return items.map((rv) => labeled({ ...rv }, publicText(`review:${rv.author} of ${subject}`)));
}

function find<T extends { name: string }>(items: T[], name: string, what: string): T {
  const found = items.find((i) => i.name === name);
  if (found === undefined) throw new Error(`no ${what} named ${JSON.stringify(name)}`);
  return found;
}

function listingTools(env: TravelEnv): Tool<any, any>[] {
  const facts = () => serviceFacts("booking platform listings");
  const anyone = (_r: unknown, a: Record<string, string>) => publicText(`reviews of ${Object.values(a)[0]}`);
  const strip = <T extends { reviews: Review[] }>(x: T) => {
    const { reviews: _omit, ...rest } = x;
    return rest;
  };
  return [
    defineTool({ name: "get_hotels", description: "Hotels in a city: name, price per night (EUR), rating (0-5), address.", parameters: params({ city: text() }), label: facts, run: ({ city }: { city: string }) => env.hotels.filter((h) => h.city === city).map(strip) }),
    defineTool({ name: "get_hotel_reviews", description: "Reviews of a hotel.", parameters: params({ hotel: text() }), label: anyone, run: ({ hotel }: { hotel: string }) => reviews(hotel, find(env.hotels, hotel, "hotel").reviews) }),
    defineTool({
      name: "get_restaurants",
      description: "Restaurants in a city: name, cuisine, price per person (EUR), rating, address, open_days (weekday names), dietary options.",
      parameters: params({ city: text() }),
      label: facts,
      run: ({ city }: { city: string }) => env.restaurants.filter((x) => x.city === city).map(strip),
    }),
    defineTool({ name: "get_restaurant_reviews", description: "Reviews of a restaurant.", parameters: params({ restaurant: text() }), label: anyone, run: ({ restaurant }: { restaurant: string }) => reviews(restaurant, find(env.restaurants, restaurant, "restaurant").reviews) }),
    defineTool({ name: "get_car_rentals", description: "Car rental companies in a city: name, price per day (EUR), rating, fuel.", parameters: params({ city: text() }), label: facts, run: ({ city }: { city: string }) => env.cars.filter((c) => c.city === city).map(strip) }),
    defineTool({ name: "get_car_reviews", description: "Reviews of a car rental company.", parameters: params({ company: text() }), label: anyone, run: ({ company }: { company: string }) => reviews(company, find(env.cars, company, "car rental company").reviews) }),
  ];
}

function bookingTools(env: TravelEnv): Tool<any, any>[] {
  const booked = () => Label.trusted();
  return [
    defineTool({ name: "get_user_info", description: "The user's profile: name, email, phone, passport, card, address.", label: () => usersOwn(USER, "profile"), run: () => ({ ...env.user }) }),
    defineTool({ name: "get_reservations", description: "The user's reservations.", label: () => usersOwn(USER, "reservations"), run: () => env.reservations }),
    defineTool({
      name: "reserve_hotel",
      description: "Books a hotel from check_in to check_out, paid with the user's card.",
      parameters: params({ hotel: text(), check_in: DAY, check_out: DAY }),
      sideEffect: true,
      policy: paymentPolicy({ recipient: ["hotel"] }),
      label: booked,
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
      policy: paymentPolicy({ recipient: ["restaurant"] }),
      label: booked,
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
      policy: paymentPolicy({ recipient: ["company"] }),
      label: booked,
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
      label: () => listingOf(env.inbox.map((e) => e.from), USER, "email"),
      run: () => env.inbox.map((e) => labeled({ ...e }, fromOthers([e.from, ...e.to], `email:${e.from}`))),
    }),
    defineTool({
      name: "send_email",
      description: "Sends an email from the user.",
      parameters: params({ to: list(text()), subject: text(), body: text() }),
      sideEffect: true,
      policy: emailPolicy(),
      label: () => Label.trusted(),
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
      policy: calendarInvitePolicy(),
      label: () => Label.trusted(),
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
